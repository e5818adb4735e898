import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { signingKeys } from '../db/schema/index.ts';

export type SigningKeysRepository = ReturnType<typeof createSigningKeysRepository>;
export type SigningKeyRow = {
  kid: string;
  alg: string;
  publicJwk: string;
  privateJwkEncrypted: string;
};

export function createSigningKeysRepository(db: Db) {
  return {
    /** Active keys, oldest first: every process signs with the same (first) one. */
    async listActive(): Promise<SigningKeyRow[]> {
      return db
        .select({
          kid: signingKeys.kid,
          alg: signingKeys.alg,
          publicJwk: signingKeys.publicJwk,
          privateJwkEncrypted: signingKeys.privateJwkEncrypted,
        })
        .from(signingKeys)
        .where(eq(signingKeys.active, true))
        .orderBy(asc(signingKeys.createdAt), asc(signingKeys.kid));
    },

    async insert(row: SigningKeyRow & { now: Date }): Promise<void> {
      const { now, ...key } = row;
      await db
        .insert(signingKeys)
        .values({ ...key, createdAt: now })
        .onConflictDoNothing();
    },
  };
}
