import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PaymentMethod, WithdrawalStatus } from '../../../core/validation/withdrawal.rules.ts';
import type { Db } from '../../db/client.ts';
import {
  artistAccounts,
  artistWithdrawals,
  profiles,
  withdrawalIdempotencyKeys,
} from '../../db/schema/index.ts';
import { queryRows } from '../../db/sql-results.ts';

export type WithdrawalsRepository = ReturnType<typeof createWithdrawalsRepository>;
export type WithdrawalRow = typeof artistWithdrawals.$inferSelect;
export type AdminWithdrawalRow = WithdrawalRow & { artistName: string | null };
export type AccountRow = typeof artistAccounts.$inferSelect;

/** Cents behind an artist's balance, summed by the database (never loaded row by row). */
export type BalanceParts = { revenue: bigint; paid: bigint; pending: bigint };

const adminColumns = {
  id: artistWithdrawals.id,
  artistId: artistWithdrawals.artistId,
  amountCents: artistWithdrawals.amountCents,
  status: artistWithdrawals.status,
  paymentMethod: artistWithdrawals.paymentMethod,
  paymentDetailsEncrypted: artistWithdrawals.paymentDetailsEncrypted,
  paymentDetailsMasked: artistWithdrawals.paymentDetailsMasked,
  requestedAt: artistWithdrawals.requestedAt,
  processedAt: artistWithdrawals.processedAt,
  processedBy: artistWithdrawals.processedBy,
  notes: artistWithdrawals.notes,
  artistName: profiles.displayName,
};

/**
 * artist_withdrawals, the artist's account row (the lock every balance change takes, and the
 * payout settings) and submits' Idempotency-Keys (docs/decisions/0029). artist_revenue is
 * the revenue module's; it is only read here.
 */
export function createWithdrawalsRepository(db: Db) {
  return {
    /** One transaction for a balance change: the lock, the re-read and the write. */
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx as unknown as Db));
    },

    /**
     * Makes the artist's account row if missing and locks it (FOR UPDATE) until `tx` ends:
     * every balance-changing transaction of this artist waits here for the one before.
     */
    async lockArtist(tx: Db, artistId: string): Promise<AccountRow> {
      await tx.insert(artistAccounts).values({ artistId }).onConflictDoNothing();
      const [row] = await tx
        .select()
        .from(artistAccounts)
        .where(eq(artistAccounts.artistId, artistId))
        .for('update');
      return row!;
    },

    /** The provider's connected account payouts go to; set once the artist onboards. */
    async setPayoutAccount(artistId: string, accountId: string): Promise<void> {
      await db
        .insert(artistAccounts)
        .values({ artistId, payoutAccountId: accountId })
        .onConflictDoUpdate({
          target: artistAccounts.artistId,
          set: { payoutAccountId: accountId, updatedAt: sql`now()` },
        });
    },

    async account(artistId: string): Promise<AccountRow | null> {
      const [row] = await db
        .select()
        .from(artistAccounts)
        .where(eq(artistAccounts.artistId, artistId));
      return row ?? null;
    },

    /** Σ revenue, Σ completed + processing, Σ pending: one statement. */
    async balanceParts(artistId: string, tx: Db = db): Promise<BalanceParts> {
      const [row] = await queryRows<{ revenue: string; paid: string; pending: string }>(
        tx,
        sql`select
              (select coalesce(sum(total_revenue_cents), 0) from artist_revenue
                where artist_id = ${artistId})::text as revenue,
              coalesce(sum(amount_cents) filter (where status in ('completed', 'processing')), 0)::text as paid,
              coalesce(sum(amount_cents) filter (where status = 'pending'), 0)::text as pending
            from artist_withdrawals where artist_id = ${artistId}`,
      );
      return {
        revenue: BigInt(row!.revenue),
        paid: BigInt(row!.paid),
        pending: BigInt(row!.pending),
      };
    },

    async insert(
      tx: Db,
      row: {
        artistId: string;
        amountCents: bigint;
        paymentMethod: PaymentMethod;
        paymentDetailsEncrypted: string;
        paymentDetailsMasked: string;
        requestedAt: Date;
      },
    ): Promise<WithdrawalRow> {
      const [made] = await tx.insert(artistWithdrawals).values(row).returning();
      return made!;
    },

    /** Keeps the method and details last entered, for the next request's form. */
    async savePayout(
      tx: Db,
      artistId: string,
      payout: {
        paymentMethod: PaymentMethod;
        paymentDetailsEncrypted: string;
        paymentDetailsMasked: string;
        updatedAt: Date;
      },
    ): Promise<void> {
      await tx.update(artistAccounts).set(payout).where(eq(artistAccounts.artistId, artistId));
    },

    async findKey(tx: Db, artistId: string, key: string) {
      const [row] = await tx
        .select()
        .from(withdrawalIdempotencyKeys)
        .where(
          and(
            eq(withdrawalIdempotencyKeys.artistId, artistId),
            eq(withdrawalIdempotencyKeys.key, key),
          ),
        );
      return row ?? null;
    },

    async saveKey(
      tx: Db,
      row: {
        artistId: string;
        key: string;
        requestHash: string;
        withdrawalId: string;
        statusCode: number;
        response: string;
      },
    ): Promise<void> {
      await tx.insert(withdrawalIdempotencyKeys).values(row);
    },

    mine(artistId: string): Promise<WithdrawalRow[]> {
      return db
        .select()
        .from(artistWithdrawals)
        .where(eq(artistWithdrawals.artistId, artistId))
        .orderBy(desc(artistWithdrawals.requestedAt), desc(artistWithdrawals.id));
    },

    /** Every request, newest first, with the artist's display name. */
    all(): Promise<AdminWithdrawalRow[]> {
      return db
        .select(adminColumns)
        .from(artistWithdrawals)
        .leftJoin(profiles, eq(profiles.userId, artistWithdrawals.artistId))
        .orderBy(desc(artistWithdrawals.requestedAt), desc(artistWithdrawals.id));
    },

    async find(id: string, tx: Db = db): Promise<AdminWithdrawalRow | null> {
      const [row] = await tx
        .select(adminColumns)
        .from(artistWithdrawals)
        .leftJoin(profiles, eq(profiles.userId, artistWithdrawals.artistId))
        .where(eq(artistWithdrawals.id, id));
      return row ?? null;
    },

    /**
     * Moves a request from one of `from` to `to`, once: the WHERE on the status makes a
     * second change find nothing (null).
     */
    async changeStatus(
      tx: Db,
      id: string,
      from: readonly WithdrawalStatus[],
      change: {
        status: WithdrawalStatus;
        processedAt: Date | null;
        processedBy: string | null;
        notes: string | null;
      },
    ): Promise<boolean> {
      const changed = await tx
        .update(artistWithdrawals)
        .set(change)
        .where(and(eq(artistWithdrawals.id, id), inArray(artistWithdrawals.status, [...from])))
        .returning({ id: artistWithdrawals.id });
      return changed.length === 1;
    },
  };
}
