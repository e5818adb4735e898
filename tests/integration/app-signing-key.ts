import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { createSecretBox } from '../../src/server/security/secret-box.ts';
import { createSigningKeysRepository } from '../../src/server/security/signing-keys.repository.ts';
import type { TestContext } from '../helpers/test-app.ts';

/**
 * Signs exactly `claims` with the app's own active signing key, read from `signing_keys` and
 * unsealed with the test SECRET_KEY: a token only the server (or a leak of its key) could
 * make, so a refusal can only come from the claims, never from the signature.
 */
export async function signWithAppKey(ctx: TestContext, claims: JWTPayload): Promise<string> {
  const [row] = await createSigningKeysRepository(ctx.db.database.db).listActive();
  if (!row || !ctx.env.secretKey) throw new Error('the app has no signing key yet');
  const box = createSecretBox(ctx.env.secretKey, 'signing-keys');
  const privateJwk = JSON.parse(box.open(row.privateJwkEncrypted)) as JWK;
  const key = await importJWK(privateJwk, 'ES256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: row.kid, typ: 'JWT' })
    .sign(key);
}
