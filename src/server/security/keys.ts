import crypto from 'node:crypto';
import {
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { SigningKeysRepository } from './signing-keys.repository.ts';
import type { SecretBox } from './secret-box.ts';

const ALG = 'ES256';
// An unknown kid may be a key another process just created; look again, but not on every request.
const RELOAD_INTERVAL_MS = 30_000;
/**
 * Tokens whose signature this process has verified, with their payloads. Every signed-in
 * request presents its token again, and an ES256 verification is a third of a millisecond of
 * the event loop (7 % of it when serving searches); the same bytes verify the same way, so
 * a repeat checks only what time changes, the expiry. The session is still looked up each
 * time. Bounded, oldest dropped first.
 */
const VERIFIED_MAX = 1000;

type LoadedKey = { kid: string; publicJwk: JWK; publicKey: CryptoKey; privateKey: CryptoKey };

export type KeyStore = Awaited<ReturnType<typeof createKeyStore>>;

/**
 * ES256 signing keys kept in `signing_keys` (private half sealed with SECRET_KEY) and cached
 * in memory. The first start creates one; all processes sign with the oldest active key.
 */
export async function createKeyStore(deps: {
  repo: SigningKeysRepository;
  box: SecretBox;
  now: () => Date;
}) {
  let keys: LoadedKey[] = [];
  let lastLoad = 0;
  const verified = new Map<string, { payload: JWTPayload; issuer: string; audience: string }>();

  async function load() {
    const rows = await deps.repo.listActive();
    keys = await Promise.all(
      rows.map(async (row) => {
        const publicJwk = JSON.parse(row.publicJwk) as JWK;
        const privateJwk = JSON.parse(deps.box.open(row.privateJwkEncrypted)) as JWK;
        return {
          kid: row.kid,
          publicJwk,
          publicKey: (await importJWK(publicJwk, ALG)) as CryptoKey,
          privateKey: (await importJWK(privateJwk, ALG)) as CryptoKey,
        };
      }),
    );
    lastLoad = Date.now();
  }

  await load();
  if (keys.length === 0) {
    const pair = await generateKeyPair(ALG, { extractable: true });
    const kid = crypto.randomUUID();
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = await exportJWK(pair.privateKey);
    await deps.repo.insert({
      kid,
      alg: ALG,
      publicJwk: JSON.stringify(publicJwk),
      privateJwkEncrypted: deps.box.seal(JSON.stringify(privateJwk)),
      now: deps.now(),
    });
    // Another process may have created one at the same moment: reload and sign with the oldest.
    await load();
  }

  async function keyFor(kid: string | undefined): Promise<CryptoKey> {
    let key = keys.find((k) => k.kid === kid);
    if (!key && Date.now() - lastLoad > RELOAD_INTERVAL_MS) {
      await load();
      key = keys.find((k) => k.kid === kid);
    }
    if (!key) throw new Error('unknown signing key');
    return key.publicKey;
  }

  return {
    async sign(
      claims: JWTPayload,
      opts: { issuer: string; audience: string; issuedAt: number; expiresAt: number },
    ): Promise<string> {
      const key = keys[0]!;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
        .setIssuer(opts.issuer)
        .setAudience(opts.audience)
        .setIssuedAt(opts.issuedAt)
        .setExpirationTime(opts.expiresAt)
        .sign(key.privateKey);
    },

    /**
     * The verified payload, or null for a bad signature, another issuer or audience, or no or
     * a past expiry at `now`. jose checks `exp` only when present, so it is required here: a
     * token signed without one (by a bug or a leaked tool) must not live forever.
     */
    async verify(
      token: string,
      opts: { issuer: string; audience: string; now: Date },
    ): Promise<JWTPayload | null> {
      const nowSeconds = Math.floor(opts.now.getTime() / 1000);
      const hit = verified.get(token);
      if (hit && hit.issuer === opts.issuer && hit.audience === opts.audience) {
        // As jose judges it: expired once exp <= now, in whole seconds.
        if ((hit.payload.exp as number) > nowSeconds) return hit.payload;
        verified.delete(token);
        return null;
      }
      try {
        const { kid } = decodeProtectedHeader(token);
        const key = await keyFor(kid);
        const { payload } = await jwtVerify(token, key, {
          issuer: opts.issuer,
          audience: opts.audience,
          requiredClaims: ['exp'],
          algorithms: [ALG],
          currentDate: opts.now,
        });
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, { payload, issuer: opts.issuer, audience: opts.audience });
        return payload;
      } catch {
        return null;
      }
    },

    /** The JWKS document: public halves only. */
    jwks(): { keys: JWK[] } {
      return { keys: keys.map((k) => k.publicJwk) };
    },
  };
}
