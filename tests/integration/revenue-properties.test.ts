// The monthly run's exactness (docs/decisions/0029) as properties of the real SQL: generated
// small months on each database, every run compared with the independent model in
// revenue-helpers.ts, conservation to the cent, no negative amount, a rerun identical, the
// records' order irrelevant, a listener who heard nobody paying nothing out.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { createRevenueRuns } from '../../src/server/modules/revenue/revenue.module.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';
import { monthRows, referenceRevenue, seedMonth, type MonthSpec } from './revenue-helpers.ts';

const ARTISTS = 4;

const play = fc.record({
  artist: fc.integer({ min: 0, max: ARTISTS - 1 }),
  // Small values make equal remainders (ties) common; 0 ms plays are a stream but no share.
  ms: fc.oneof(fc.constantFrom(0, 1, 2, 3, 1000), fc.integer({ min: 0, max: 400_000 })),
  episode: fc.boolean(),
});
const listener = fc.record({
  premium: fc.boolean(),
  plays: fc.array(play, { maxLength: 5 }),
});
const month = fc.record({
  listeners: fc.array(listener, { maxLength: 6 }),
  impressions: fc.array(
    fc.record({
      artist: fc.integer({ min: 0, max: ARTISTS - 1 }),
      count: fc.integer({ min: 1, max: 7 }),
      episode: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  tips: fc.array(
    fc.record({
      artist: fc.integer({ min: 0, max: ARTISTS - 1 }),
      amount: fc.integer({ min: 100, max: 10_000 }),
    }),
    { maxLength: 2 },
  ),
});

describe.each(dbKinds)('revenue run properties on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('pays exactly the model, conserves every cent, and ignores record order', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(month, async (generated) => {
        // A month of its own per case: the cases never see each other's rows.
        n += 1;
        const name = `${2000 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
        const spec: MonthSpec = {
          month: name,
          artists: ARTISTS,
          listeners: generated.listeners,
          impressions: generated.impressions,
          tips: generated.tips.map((tip) => ({
            ...tip,
            fee: Math.floor((tip.amount * 5 * 2 + 100) / 200),
          })),
        };
        const seeded = await seedMonth(t.database.db, spec);
        const runs = createRevenueRuns(t.database, systemClock);
        const model = referenceRevenue(spec, seeded);

        const run = await runs.calculate(name, null);
        const stored = await monthRows(t.database.db, name);
        expect(stored).toEqual(model.rows.map(({ allocation: _a, ...r }) => r));

        // No negative amount anywhere.
        for (const r of stored)
          for (const v of [r.premium, r.ad, r.tip, r.total]) expect(v).toBeGreaterThanOrEqual(0n);

        // Conservation: contributions = fee + artists' premium + the platform's remainder,
        // the remainder being what the model leaves: unallocated nets and share remainders.
        const artistPremium = stored.reduce((s, r) => s + r.premium, 0n);
        const shareRemainder = model.rows.reduce((s, r) => s + r.allocation - r.premium, 0n);
        const remainder = model.unallocated + shareRemainder;
        expect(run.totalPremiumPoolCents).toBe(model.pool);
        expect(run.premiumFeeCents).toBe(model.fee);
        expect(model.pool).toBe(model.fee + artistPremium + remainder);
        expect(run.premiumArtistCents).toBe(artistPremium);
        expect(run.totalPremiumPoolCents - run.premiumFeeCents - run.premiumArtistCents).toBe(
          remainder,
        );

        // A listener who heard nobody pays nothing out: their net is the unallocated part.
        const silent = spec.listeners.filter(
          (l) => l.premium && l.plays.every((p) => p.ms === 0),
        ).length;
        expect(run.premiumUnallocatedCents).toBe(BigInt(silent) * 949n);

        // A rerun gives the same rows.
        await runs.calculate(name, null);
        expect(await monthRows(t.database.db, name)).toEqual(stored);

        // The same records written again in another order (new ids, shuffled): same rows.
        const start = `${name}-01T00:00:00Z`;
        await t.database.db.execute(sql`
          with moved as (
            delete from stream_analytics
            where played_at >= ${start}::timestamptz
              and played_at < ${start}::timestamptz + interval '1 month'
            returning user_id, song_id, podcast_episode_id, played_at, listened_ms, completed)
          insert into stream_analytics
            (user_id, song_id, podcast_episode_id, played_at, listened_ms, completed)
          select user_id, song_id, podcast_episode_id, played_at, listened_ms, completed
          from moved order by md5(random()::text)`);
        await runs.calculate(name, null);
        expect(await monthRows(t.database.db, name)).toEqual(stored);
      }),
      { numRuns: kind === 'pglite' ? 25 : 40 },
    );
  }, 120_000);
});
