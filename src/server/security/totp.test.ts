import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  checkTotp,
  createSecretCipher,
  isFreshStep,
  newTotpSecret,
  totpStep,
  totpUri,
} from './totp.ts';

const at = (iso: string) => new Date(iso);
const codeAt = (secret: string, when: Date) =>
  generate({ secret, epoch: Math.floor(when.getTime() / 1000) });

describe('TOTP', () => {
  const secret = newTotpSecret();
  const now = at('2026-03-01T12:00:10Z');
  const step = totpStep(now);

  it('accepts the current code and reports its step', async () => {
    expect(
      await checkTotp({ secret, code: await codeAt(secret, now), now, lastUsedStep: null }),
    ).toEqual({ ok: true, step });
  });

  it('tolerates one step of drift either way, not two', async () => {
    const before = new Date(now.getTime() - 30_000);
    const after = new Date(now.getTime() + 30_000);
    const twoBefore = new Date(now.getTime() - 60_000);
    expect(
      await checkTotp({ secret, code: await codeAt(secret, before), now, lastUsedStep: null }),
    ).toEqual({ ok: true, step: step - 1 });
    expect(
      await checkTotp({ secret, code: await codeAt(secret, after), now, lastUsedStep: null }),
    ).toEqual({ ok: true, step: step + 1 });
    expect(
      await checkTotp({ secret, code: await codeAt(secret, twoBefore), now, lastUsedStep: null }),
    ).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a code whose step was already used, even later in its window', async () => {
    const code = await codeAt(secret, now);
    const later = new Date(now.getTime() + 15_000);
    expect(await checkTotp({ secret, code, now: later, lastUsedStep: step })).toEqual({
      ok: false,
      reason: 'reused',
    });
    // An older step than the last used one is a replay too.
    const older = await codeAt(secret, new Date(now.getTime() - 30_000));
    expect(await checkTotp({ secret, code: older, now, lastUsedStep: step })).toEqual({
      ok: false,
      reason: 'reused',
    });
    // The next step's code is fresh.
    const next = new Date(now.getTime() + 30_000);
    expect(
      await checkTotp({ secret, code: await codeAt(secret, next), now: next, lastUsedStep: step }),
    ).toEqual({ ok: true, step: step + 1 });
  });

  it('orders steps strictly', () => {
    expect(isFreshStep(10, null)).toBe(true);
    expect(isFreshStep(11, 10)).toBe(true);
    expect(isFreshStep(10, 10)).toBe(false);
    expect(isFreshStep(9, 10)).toBe(false);
  });

  it('refuses malformed codes without calling the library', async () => {
    for (const code of ['', '12345', '1234567', 'abcdef', ' 12345']) {
      expect(await checkTotp({ secret, code, now, lastUsedStep: null })).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('builds an otpauth URI with the issuer and the account label', () => {
    const uri = new URL(totpUri({ issuer: 'Canto', label: 'ann@example.com', secret }));
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toContain('Canto:ann@example.com');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Canto');
  });
});

describe('secret cipher', () => {
  const cipher = createSecretCipher('a-secret-key-a-secret-key-0123456789');

  it('round-trips and never stores the plain text', () => {
    const sealed = cipher.encrypt('JBSWY3DPEHPK3PXP', 'factor-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(cipher.decrypt(sealed, 'factor-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(cipher.encrypt('JBSWY3DPEHPK3PXP', 'factor-1')).not.toBe(sealed);
  });

  it('refuses a ciphertext moved to another row, tampered with, or under another key', () => {
    const sealed = cipher.encrypt('JBSWY3DPEHPK3PXP', 'factor-1');
    expect(() => cipher.decrypt(sealed, 'factor-2')).toThrow();
    const parts = sealed.split('.');
    parts[2] = Buffer.from('AAAAAAAAAAAAAAAA').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'factor-1')).toThrow();
    expect(() =>
      createSecretCipher('another-key-another-key-0123456789').decrypt(sealed, 'factor-1'),
    ).toThrow();
  });
});
