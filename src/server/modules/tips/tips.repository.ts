import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, tips } from '../../db/schema/index.ts';

export type TipsRepository = ReturnType<typeof createTipsRepository>;
export type TipRow = typeof tips.$inferSelect;
type Provider = TipRow['provider'];

export function createTipsRepository(db: Db) {
  return {
    /** The name Stripe's page shows on the tip's line. */
    async displayNameOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: profiles.displayName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row?.name ?? null;
    },

    /** A checkout opened: the tip waits, unpaid, for its provider's word. */
    async insertPending(values: {
      id: string;
      listenerId: string;
      artistId: string;
      amountCents: bigint;
      provider: Provider;
      providerRef: string;
      message: string | null;
      now: Date;
    }): Promise<void> {
      await db.insert(tips).values({
        id: values.id,
        listenerId: values.listenerId,
        artistId: values.artistId,
        amountCents: values.amountCents,
        provider: values.provider,
        providerRef: values.providerRef,
        message: values.message,
        status: 'pending',
        createdAt: values.now,
      });
    },

    /** The listener's own tip with the artist's display name; null for anyone else's. */
    async findOwn(
      id: string,
      listenerId: string,
    ): Promise<(TipRow & { artistName: string | null }) | null> {
      const [row] = await db
        .select({ tip: tips, artistName: profiles.displayName })
        .from(tips)
        .leftJoin(profiles, eq(profiles.userId, tips.artistId))
        .where(and(eq(tips.id, id), eq(tips.listenerId, listenerId)))
        .limit(1);
      return row ? { ...row.tip, artistName: row.artistName } : null;
    },

    /**
     * Marks the tip `(provider, providerRef)` paid, once: the row is locked and only a pending
     * tip moves, so a repeated webhook or confirm finds it paid and changes nothing.
     * `credit` runs in the same transaction (the artist's month). Null when nothing moved.
     */
    async markPaid(
      provider: Provider,
      providerRef: string,
      paid: { now: Date; feeCents: (amount: bigint) => bigint; expectCents?: bigint },
      credit: (tx: Db, tip: TipRow) => Promise<void>,
    ): Promise<TipRow | 'not-found' | 'already' | 'mismatch'> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(tips)
          .where(and(eq(tips.provider, provider), eq(tips.providerRef, providerRef)))
          .for('update')
          .limit(1);
        if (!row) return 'not-found';
        if (row.status !== 'pending') return 'already';
        if (paid.expectCents !== undefined && paid.expectCents !== row.amountCents)
          return 'mismatch';
        const [updated] = await tx
          .update(tips)
          .set({ status: 'paid', feeCents: paid.feeCents(row.amountCents), paidAt: paid.now })
          .where(and(eq(tips.id, row.id), eq(tips.status, 'pending')))
          .returning();
        await credit(tx, updated!);
        return updated!;
      });
    },

    /** A checkout the provider says will never pay (expired): failed, if still pending. */
    async markFailed(provider: Provider, providerRef: string): Promise<boolean> {
      const rows = await db
        .update(tips)
        .set({ status: 'failed' })
        .where(
          and(
            eq(tips.provider, provider),
            eq(tips.providerRef, providerRef),
            eq(tips.status, 'pending'),
          ),
        )
        .returning({ one: sql<number>`1` });
      return rows.length > 0;
    },
  };
}
