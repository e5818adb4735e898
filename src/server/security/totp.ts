import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';

// RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30 s steps.
export const TOTP_PERIOD_S = 30;
/** ±1 step of clock drift between the phone and the server. */
const TOLERANCE_S = TOTP_PERIOD_S;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(input: { issuer: string; label: string; secret: string }): string {
  return generateURI({
    issuer: input.issuer,
    label: input.label,
    secret: input.secret,
    period: TOTP_PERIOD_S,
  });
}

/** The time step a moment falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
}

/** A code may be used once: only a step later than the last accepted one counts. */
export function isFreshStep(step: number, lastUsedStep: number | null): boolean {
  return lastUsedStep === null || step > lastUsedStep;
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'reused' };

/** Checks a code at `now` (injected), within ±1 step, refusing a step already used. */
export async function checkTotp(input: {
  secret: string;
  code: string;
  now: Date;
  lastUsedStep: number | null;
}): Promise<TotpCheck> {
  if (!/^\d{6}$/.test(input.code)) return { ok: false, reason: 'invalid' };
  const result = await verify({
    secret: input.secret,
    token: input.code,
    period: TOTP_PERIOD_S,
    epoch: Math.floor(input.now.getTime() / 1000),
    epochTolerance: TOLERANCE_S,
  });
  if (!result.valid || !('timeStep' in result)) return { ok: false, reason: 'invalid' };
  return isFreshStep(result.timeStep, input.lastUsedStep)
    ? { ok: true, step: result.timeStep }
    : { ok: false, reason: 'reused' };
}

/**
 * AES-256-GCM for TOTP secrets at rest, keyed by HKDF-SHA256 from SECRET_KEY. The factor id
 * is bound in as associated data, so a ciphertext copied to another row does not decrypt.
 */
export type SecretCipher = {
  encrypt(plain: string, boundTo: string): string;
  decrypt(sealed: string, boundTo: string): string;
};

const VERSION = 'v1';

export function createSecretCipher(
  secretKey: string,
  purpose = 'canto/mfa/totp-secret/v1',
): SecretCipher {
  const key = Buffer.from(crypto.hkdfSync('sha256', secretKey, 'canto', purpose, 32));
  return {
    encrypt(plain, boundTo) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        body.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join('.');
    },
    decrypt(sealed, boundTo) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag)
        throw new Error('unrecognised sealed secret');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
