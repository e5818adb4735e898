import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMediaUrlSigner, MEDIA_URL_WINDOW_SECONDS } from './media-url-signer.ts';

const W = MEDIA_URL_WINDOW_SECONDS;
const KEY = 'a-secret-key-a-secret-key-a-secret-key-0123';
const PATH = '/media/music/0b5e1c0a-3f1e-4c47-9a4e-0c1d2e3f4a5b.mp3';

/** A signer whose clock reads `t` seconds (settable). */
function at(t: number, secretKey = KEY) {
  const clock = { t, now: () => new Date(clock.t * 1000) };
  return { clock, signer: createMediaUrlSigner({ secretKey, clock }) };
}
const parts = (url: string) => {
  const q = new URL(url, 'http://x').searchParams;
  return { e: q.get('e')!, s: q.get('s')! };
};

describe('media URL signer', () => {
  it('signs path + expiry: ?e=<end of the next window>&s=<43 base64url chars>&n=<nginx token>', () => {
    const start = 1_000 * W;
    const { signer } = at(start + 123);
    const url = signer.sign(PATH);
    expect(url).toMatch(
      /^\/media\/music\/[0-9a-f-]{36}\.mp3\?e=\d+&s=[A-Za-z0-9_-]{43}&n=[A-Za-z0-9_-]{22}$/,
    );
    expect(Number(parts(url).e)).toBe(start + 2 * W);
  });

  it('gives one URL per path for a whole window, valid between one and two windows', () => {
    const start = 2_000 * W;
    const { clock, signer } = at(start);
    const first = signer.sign(PATH);
    for (const t of [start + 1, start + W / 2, start + W - 1]) {
      clock.t = t;
      expect(signer.sign(PATH)).toBe(first);
      expect(Number(parts(first).e) - t).toBeGreaterThan(W);
    }
    clock.t = start + W;
    expect(signer.sign(PATH)).not.toBe(first);
    expect(signer.verify(PATH, parts(first).e, parts(first).s).ok).toBe(true);
  });

  it('verifies its own URLs until they expire, then says expired', () => {
    const { clock, signer } = at(3_000 * W + 5);
    const { e, s } = parts(signer.sign(PATH));
    expect(signer.verify(PATH, e, s)).toEqual({ ok: true, expires: Number(e) });
    clock.t = Number(e) - 1;
    expect(signer.verify(PATH, e, s).ok).toBe(true);
    clock.t = Number(e);
    expect(signer.verify(PATH, e, s)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another path, another expiry, another key, another spelling', () => {
    const { signer } = at(4_000 * W);
    const { e, s } = parts(signer.sign(PATH));
    const invalid = { ok: false, reason: 'invalid' };
    expect(signer.verify(PATH.replace('0b5e', '1b5e'), e, s)).toEqual(invalid);
    expect(signer.verify(PATH.replace('music', 'podcasts'), e, s)).toEqual(invalid);
    expect(signer.verify(PATH, String(Number(e) + W), s)).toEqual(invalid);
    expect(signer.verify(PATH, `0${e}`, s)).toEqual(invalid);
    expect(at(4_000 * W, `${KEY}x`).signer.verify(PATH, e, s)).toEqual(invalid);
    // Same bytes, different text: the last character carries 2 spare bits, always 0 in the
    // signer's output; the next character of the alphabet decodes to the same 32 bytes.
    const sibling = `${s.slice(0, -1)}${String.fromCharCode(s.charCodeAt(42) + 1)}`;
    expect(Buffer.from(sibling, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
    expect(signer.verify(PATH, e, sibling)).toEqual(invalid);
  });

  it('says missing without a signature and invalid for malformed values, never throwing', () => {
    const { signer } = at(5_000 * W);
    const { e, s } = parts(signer.sign(PATH));
    expect(signer.verify(PATH, undefined, undefined)).toEqual({ ok: false, reason: 'missing' });
    for (const [badE, badS] of [
      [e, undefined],
      [undefined, s],
      [[e, e], s],
      [e, [s, s]],
      ['', s],
      ['-1', s],
      ['1e9', s],
      ['9'.repeat(13), s],
      [e, ''],
      [e, `${s}=`],
      [e, s.slice(1)],
      [e, `${s.slice(1)}+`],
      [e, 'é'.repeat(43)],
      [{}, {}],
    ] as const) {
      expect(signer.verify(PATH, badE, badS)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('uses a key of its own, derived from SECRET_KEY (not the key itself)', () => {
    const { signer } = at(6_000 * W);
    const { e, s } = parts(signer.sign(PATH));
    const raw = crypto.createHmac('sha256', KEY).update(`${PATH}\n${e}`).digest('base64url');
    expect(s).not.toBe(raw);
    expect(signer.signatureOf(PATH, Number(e))).toBe(s);
  });
});
