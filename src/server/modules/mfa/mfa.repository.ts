import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mfaChallenges, mfaFactors, profiles, users } from '../../db/schema/index.ts';
import { isSqlState } from '../../db/sql-results.ts';

export type MfaRepository = ReturnType<typeof createMfaRepository>;
export type FactorRow = typeof mfaFactors.$inferSelect;
export type ChallengeRow = typeof mfaChallenges.$inferSelect;

/** What a successful verification writes, besides consuming the challenge. */
export type VerificationUpdate =
  | { kind: 'totp'; step: number }
  | {
      kind: 'webauthn-registration';
      credentialId: string;
      publicKey: Uint8Array;
      signCount: number;
      transports: string[];
    }
  | { kind: 'webauthn-authentication'; signCount: number };

export type VerificationOutcome = 'ok' | 'challenge-used' | 'step-used' | 'credential-taken';

class Abort extends Error {
  constructor(readonly outcome: VerificationOutcome) {
    super(outcome);
  }
}

const isUniqueViolation = (error: unknown): boolean => isSqlState(error, '23505');

export function createMfaRepository(db: Db) {
  return {
    async account(userId: string): Promise<{ email: string; displayName: string | null } | null> {
      const [row] = await db
        .select({ email: users.email, displayName: profiles.displayName })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(eq(users.id, userId))
        .limit(1);
      return row ?? null;
    },

    listFactors(userId: string): Promise<FactorRow[]> {
      return db
        .select()
        .from(mfaFactors)
        .where(eq(mfaFactors.userId, userId))
        .orderBy(asc(mfaFactors.createdAt), asc(mfaFactors.id));
    },

    /** The user's own factor only: another user's id reads as missing. */
    async findFactor(userId: string, factorId: string): Promise<FactorRow | null> {
      const [row] = await db
        .select()
        .from(mfaFactors)
        .where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)))
        .limit(1);
      return row ?? null;
    },

    async hasVerifiedFactor(userId: string): Promise<boolean> {
      const rows = await db
        .select({ id: mfaFactors.id })
        .from(mfaFactors)
        .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, 'verified')))
        .limit(1);
      return rows.length > 0;
    },

    async countFactors(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(mfaFactors)
        .where(eq(mfaFactors.userId, userId));
      return Number(row?.n ?? 0);
    },

    /**
     * A new unverified factor. An abandoned unverified factor of the same name is replaced,
     * so retrying an enrolment does not trip the per-user unique name. Null when a verified
     * factor already has the name.
     */
    async createFactor(input: {
      id: string;
      userId: string;
      type: 'totp' | 'webauthn';
      friendlyName: string | null;
      secretEncrypted: string | null;
      now: Date;
      /** A passkey's registration challenge, stored with the factor (both or neither). */
      challenge?: { challenge: string; expiresAt: Date };
    }): Promise<{ factor: FactorRow; challenge: ChallengeRow | null } | null> {
      return db.transaction(async (tx) => {
        if (input.friendlyName !== null) {
          await tx
            .delete(mfaFactors)
            .where(
              and(
                eq(mfaFactors.userId, input.userId),
                eq(mfaFactors.friendlyName, input.friendlyName),
                eq(mfaFactors.status, 'unverified'),
              ),
            );
        }
        const [row] = await tx
          .insert(mfaFactors)
          .values({
            id: input.id,
            userId: input.userId,
            type: input.type,
            friendlyName: input.friendlyName,
            secretEncrypted: input.secretEncrypted,
            createdAt: input.now,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) return null;
        if (!input.challenge) return { factor: row, challenge: null };
        const [challenge] = await tx
          .insert(mfaChallenges)
          .values({
            factorId: row.id,
            challenge: input.challenge.challenge,
            createdAt: input.now,
            expiresAt: input.challenge.expiresAt,
          })
          .returning();
        return { factor: row, challenge: challenge! };
      });
    },

    /** Credentials of the user's verified passkeys (excluded from a new registration). */
    async passkeysOf(userId: string): Promise<{ id: string; transports: string[] }[]> {
      const rows = await db
        .select({ id: mfaFactors.credentialId, transports: mfaFactors.transports })
        .from(mfaFactors)
        .where(
          and(
            eq(mfaFactors.userId, userId),
            eq(mfaFactors.type, 'webauthn'),
            eq(mfaFactors.status, 'verified'),
          ),
        );
      return rows.flatMap((r) =>
        r.id ? [{ id: r.id, transports: splitTransports(r.transports) }] : [],
      );
    },

    async deleteFactor(userId: string, factorId: string): Promise<boolean> {
      const rows = await db
        .delete(mfaFactors)
        .where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)))
        .returning({ id: mfaFactors.id });
      return rows.length > 0;
    },

    /** A new challenge; the factor's expired ones are swept at the same time. */
    async createChallenge(input: {
      factorId: string;
      challenge: string | null;
      now: Date;
      expiresAt: Date;
    }): Promise<ChallengeRow> {
      await db
        .delete(mfaChallenges)
        .where(
          and(eq(mfaChallenges.factorId, input.factorId), lt(mfaChallenges.expiresAt, input.now)),
        );
      const [row] = await db
        .insert(mfaChallenges)
        .values({
          factorId: input.factorId,
          challenge: input.challenge,
          createdAt: input.now,
          expiresAt: input.expiresAt,
        })
        .returning();
      return row!;
    },

    async findChallenge(factorId: string, challengeId: string): Promise<ChallengeRow | null> {
      const [row] = await db
        .select()
        .from(mfaChallenges)
        .where(and(eq(mfaChallenges.id, challengeId), eq(mfaChallenges.factorId, factorId)))
        .limit(1);
      return row ?? null;
    },

    /**
     * Consumes the challenge and records the factor's use in one transaction. Each write is
     * conditional, so two concurrent verifications of one challenge or one TOTP step cannot
     * both succeed.
     */
    async completeVerification(input: {
      factorId: string;
      challengeId: string;
      now: Date;
      update: VerificationUpdate;
    }): Promise<VerificationOutcome> {
      try {
        await db.transaction(async (tx) => {
          const used = await tx
            .update(mfaChallenges)
            .set({ verifiedAt: input.now })
            .where(and(eq(mfaChallenges.id, input.challengeId), isNull(mfaChallenges.verifiedAt)))
            .returning({ id: mfaChallenges.id });
          if (used.length === 0) throw new Abort('challenge-used');

          const u = input.update;
          const base = { status: 'verified' as const, updatedAt: input.now };
          if (u.kind === 'totp') {
            const rows = await tx
              .update(mfaFactors)
              .set({ ...base, lastUsedStep: u.step })
              .where(
                and(
                  eq(mfaFactors.id, input.factorId),
                  or(isNull(mfaFactors.lastUsedStep), lt(mfaFactors.lastUsedStep, u.step)),
                ),
              )
              .returning({ id: mfaFactors.id });
            if (rows.length === 0) throw new Abort('step-used');
          } else if (u.kind === 'webauthn-registration') {
            await tx
              .update(mfaFactors)
              .set({
                ...base,
                credentialId: u.credentialId,
                // node-postgres only writes Buffers as bytea.
                publicKey: Buffer.from(u.publicKey),
                signCount: u.signCount,
                transports: u.transports.join(',') || null,
              })
              .where(eq(mfaFactors.id, input.factorId));
          } else {
            await tx
              .update(mfaFactors)
              .set({ ...base, signCount: u.signCount })
              .where(eq(mfaFactors.id, input.factorId));
          }
        });
        return 'ok';
      } catch (error) {
        if (error instanceof Abort) return error.outcome;
        if (isUniqueViolation(error)) return 'credential-taken';
        throw error;
      }
    },
  };
}

export function splitTransports(value: string | null): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}
