import crypto from 'node:crypto';

/**
 * A stable pseudonym for something that must not be stored as it is (a listener's IP and
 * user agent): base64url(HMAC-SHA256(key, parts joined by newlines)), the key derived from
 * SECRET_KEY by HKDF for `purpose`. Equal inputs give equal pseudonyms; without SECRET_KEY
 * an address cannot be recovered by trying them all.
 */
export function createPseudonymizer(
  secretKey: string,
  purpose: string,
): (...parts: string[]) => string {
  const key = Buffer.from(crypto.hkdfSync('sha256', secretKey, 'canto', `canto:${purpose}`, 32));
  return (...parts) =>
    crypto.createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
}
