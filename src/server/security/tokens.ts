import crypto from 'node:crypto';

/** 256 bits from the OS CSPRNG, URL-safe: refresh, reset and verification tokens. */
export function newOpaqueToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the database keeps instead of an opaque token. */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
