import crypto from 'node:crypto';
import type { Clock } from '../../core/clock.ts';

/**
 * Signed, expiring media URLs (docs/decisions/0010): `<path>?e=<expiry>&s=<signature>&n=<token>`
 * where `s` = base64url(HMAC-SHA256(key, `<path>\n<e>`)), the key derived from SECRET_KEY by
 * HKDF for this purpose only, and `e` a Unix time in seconds. `n` is the same promise in the
 * form nginx's own `secure_link` checks without a script (base64url(MD5(`<e><path> <secret>`)),
 * another HKDF secret): only a proxy in front reads it; Canto checks `s`.
 *
 * The expiry is not "now + TTL" but the end of the window after the current one, so every
 * URL made for a path within one window is the same string (browser and CDN caches keep
 * working) and stays valid for at least one window and at most two.
 *
 * Pure apart from the injected clock: no I/O, no state but the derived key.
 */
export type MediaUrlSigner = {
  /** `path` plus `?e=…&s=…&n=…`, valid until the end of the next window. */
  sign(path: string): string;
  /** The signature for `path` at expiry `e` (seconds), for callers that choose `e` themselves. */
  signatureOf(path: string, e: number): string;
  /** The expiry (seconds) a URL signed now gets. */
  expiryNow(): number;
  /** Checks `e` and `s` as they came in the query string; constant time in the signature. */
  verify(path: string, e: unknown, s: unknown): MediaUrlCheck;
};

export type MediaUrlCheck =
  { ok: true; expires: number } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

export const MEDIA_URL_WINDOW_SECONDS = 6 * 3600;

// Canonical decimal only, so one expiry has one spelling.
const EXPIRY = /^[1-9]\d{0,11}$/;
// 32 bytes of HMAC in unpadded base64url.
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The key media URLs are signed with, derived from SECRET_KEY for this purpose only (never
 * SECRET_KEY itself); it never leaves Canto (nginx checks `n`, see mediaUrlProxySecret).
 */
export function mediaUrlKey(secretKey: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', secretKey, 'canto', 'canto:media-url', 32));
}

/**
 * The secret nginx's `secure_link_md5` appends (hex), derived from SECRET_KEY for this purpose
 * only; `npm run nginx-media-key` writes it into nginx's include.
 */
export function mediaUrlProxySecret(secretKey: string): string {
  return Buffer.from(
    crypto.hkdfSync('sha256', secretKey, 'canto', 'canto:media-url-proxy', 32),
  ).toString('hex');
}

/** nginx's `secure_link` token for `path` until `e`: its MD5 input, as the site config spells it. */
export function proxyTokenOf(secret: string, path: string, e: number): string {
  return crypto.createHash('md5').update(`${e}${path} ${secret}`).digest('base64url');
}

export function createMediaUrlSigner(options: {
  secretKey: string;
  clock: Clock;
  windowSeconds?: number;
}): MediaUrlSigner {
  const { clock } = options;
  const window = options.windowSeconds ?? MEDIA_URL_WINDOW_SECONDS;
  if (!Number.isSafeInteger(window) || window <= 0) throw new Error('window must be > 0 s');
  const key = mediaUrlKey(options.secretKey);
  const proxySecret = mediaUrlProxySecret(options.secretKey);
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const signatureOf = (path: string, e: number) =>
    crypto.createHmac('sha256', key).update(`${path}\n${e}`).digest('base64url');
  const expiryNow = () => (Math.floor(nowSeconds() / window) + 2) * window;

  return {
    signatureOf,
    expiryNow,
    sign(path) {
      const e = expiryNow();
      return `${path}?e=${e}&s=${signatureOf(path, e)}&n=${proxyTokenOf(proxySecret, path, e)}`;
    },
    verify(path, e, s) {
      if (e === undefined && s === undefined) return { ok: false, reason: 'missing' };
      if (typeof e !== 'string' || typeof s !== 'string' || !EXPIRY.test(e) || !SIGNATURE.test(s))
        return { ok: false, reason: 'invalid' };
      const expires = Number(e);
      // Compared as strings of equal length: base64url decoding is lenient about the last
      // character's spare bits, so comparing decoded bytes would accept several spellings.
      const expected = Buffer.from(signatureOf(path, expires));
      if (!crypto.timingSafeEqual(expected, Buffer.from(s)))
        return { ok: false, reason: 'invalid' };
      if (expires <= nowSeconds()) return { ok: false, reason: 'expired' };
      return { ok: true, expires };
    },
  };
}
