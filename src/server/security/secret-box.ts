import crypto from 'node:crypto';

/**
 * AES-256-GCM with a key derived from SECRET_KEY by HKDF-SHA256; `purpose` separates keys
 * for different uses (signing keys, MFA secrets, ...). Output: v1.<iv>.<tag>.<ciphertext>.
 */
export function createSecretBox(secretKey: string, purpose: string) {
  const key = Buffer.from(crypto.hkdfSync('sha256', secretKey, 'canto', `canto:${purpose}`, 32));
  return {
    seal(plaintext: string): string {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined)
        throw new Error('unknown sealed format');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
