import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with the OWASP baseline: 19 MiB, 2 passes, 1 lane.
const params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, params);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * A hash of nothing anyone knows: sign-in verifies against it when the email is unknown, so
 * unknown and known emails cost the same time.
 */
export function dummyPasswordHash(): Promise<string> {
  return (dummy ??= hashPassword(crypto.randomBytes(32).toString('base64url')));
}
