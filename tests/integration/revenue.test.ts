// The monthly revenue run and the artist's months (docs/decisions/0029), on both databases:
// a fixed month with hand-computed cents, the same month against an independent model,
// tiers, the premium rule, tips, reruns, concurrency, access and bad input.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { revenueMessages } from '../../src/core/validation/revenue.rules.ts';
import { createRevenueModule } from '../../src/server/modules/revenue/revenue.module.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeAdmin } from './ads-helpers.ts';
import {
  asStored,
  monthRows,
  referenceRevenue,
  seedMonth,
  type MonthSpec,
} from './revenue-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const currentMonth = (ctx: TestContext) => ctx.clock.now().toISOString().slice(0, 7);

/** The module as the CLI and other modules reach it, on the test app's database. */
const revenueModule = (ctx: TestContext) =>
  createRevenueModule(
    {
      database: ctx.db.database,
      clock: ctx.clock,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      jobs: { register() {}, enqueue: async () => null } as never,
    },
    { settings: { monthEndJob: false } },
  );

const post = (ctx: TestContext, url: string, user: TestUser | null) =>
  ctx.app.inject({ method: 'POST', url, headers: user?.headers ?? {} });
const get = (ctx: TestContext, url: string, user: TestUser | null) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

async function revenueState(ctx: TestContext) {
  const [r] = await rows<{ runs: number; rows: number; h: string | null }>(
    ctx,
    sql`select (select count(*) from revenue_runs)::int as runs,
               (select count(*) from artist_revenue)::int as rows,
               (select md5(string_agg(artist_id::text || month || total_revenue_cents, ',' order by artist_id, month))
                from artist_revenue) as h`,
  );
  return r;
}

/** The hand-computed month (see the test): three artists, five listeners. */
function fixture(month: string): MonthSpec {
  return {
    month,
    artists: 3,
    listeners: [
      // 60 / 30 / 10 % of 949: 569.4, 284.7, 94.9 → floors 947, the 2 left to A2 (.9), A1 (.7).
      {
        premium: true,
        plays: [
          { artist: 0, ms: 60_000 },
          { artist: 1, ms: 30_000 },
          { artist: 2, ms: 10_000, episode: true },
        ],
      },
      // 474.5 each: the leftover cent to the smaller artist id (as text).
      {
        premium: true,
        plays: [
          { artist: 0, ms: 50_000 },
          { artist: 1, ms: 20_000 },
          { artist: 1, ms: 30_000, dayOffset: 3 },
        ],
      },
      // Premium, no plays: the net stays with the platform.
      { premium: true, plays: [] },
      // Free listener: a stream, no premium money.
      { premium: false, plays: [{ artist: 0, ms: 1000 }] },
      // Premium, only a 0 ms play: heard nobody.
      { premium: true, plays: [{ artist: 2, ms: 0 }] },
    ],
    impressions: [
      { artist: 0, count: 3 },
      { artist: 1, count: 1000 },
      { artist: 2, count: 1, episode: true },
    ],
    tips: [{ artist: 1, amount: 500, fee: 25 }],
  };
}

describe.each(dbKinds)('revenue on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let artist: TestUser;
  let listener: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(ctx, 'Revenue Admin');
    artist = await makeUser(ctx, 'artist', 'Revenue Artist');
    listener = await makeUser(ctx, 'listener', 'Revenue Listener');
  });

  it('refuses the run and the last run to non-admins (403) and nobody (401), writing nothing', async () => {
    const before = await revenueState(ctx);
    for (const [user, status] of [
      [null, 401],
      [listener, 403],
      [artist, 403],
    ] as const) {
      expect((await post(ctx, '/api/admin/revenue/calculate', user)).statusCode).toBe(status);
      expect((await get(ctx, '/api/admin/revenue/last', user)).statusCode).toBe(status);
    }
    expect(await revenueState(ctx)).toEqual(before);
  });

  it('answers null before the first run', async () => {
    const res = await get(ctx, '/api/admin/revenue/last', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ run: null });
  });

  it('pays the fixed month exactly as computed by hand, and as the independent model does', async () => {
    const month = '2026-03';
    const spec = fixture(month);
    const seeded = await seedMonth(ctx.db.database.db, spec);
    const run = await revenueModule(ctx).calculate(month, null);
    const [a0, a1, a2] = seeded.artistIds as [string, string, string];
    const a0First = a0 < a1;
    const byHand = [
      {
        artist_id: a0,
        // 569 + 474|475 → × 80 %, floored
        premium: a0First ? 835n : 834n,
        // 3 impressions × ½ × 0.95 × 0.8 = 1.14
        ad: 1n,
        tip: 0n,
        streams: 3,
      },
      {
        artist_id: a1,
        premium: a0First ? 607n : 608n,
        // 1000 × ½ × 0.95 × 0.8 = 380
        ad: 380n,
        tip: 475n,
        streams: 3,
      },
      // 95 × 0.8 = 76; one impression = 0.38 cents → 0
      { artist_id: a2, premium: 76n, ad: 0n, tip: 0n, streams: 2 },
    ].map((r) => ({ ...r, total: r.premium + r.ad + r.tip }));
    const stored = await monthRows(ctx.db.database.db, month);
    expect(stored).toEqual([...byHand].sort((x, y) => (x.artist_id < y.artist_id ? -1 : 1)));
    const model = referenceRevenue(spec, seeded);
    expect(stored).toEqual(asStored(model.rows));
    // 4 premium listeners: pool 3996 = fee 200 + unallocated 1898 + allocated 1898.
    expect(run).toMatchObject({
      month,
      artistsProcessed: 3,
      premiumListeners: 4,
      totalPremiumPoolCents: 3996n,
      premiumFeeCents: 200n,
      premiumUnallocatedCents: 1898n,
      premiumAllocatedCents: 1898n,
      premiumArtistCents: 1518n,
      adImpressions: 1004,
      adArtistCents: 381n,
      tipArtistCents: 475n,
    });
    // Conservation: contributions = fee + artists' premium + the platform's remainder.
    const remainder =
      run.premiumUnallocatedCents + run.premiumAllocatedCents - run.premiumArtistCents;
    expect(run.premiumFeeCents + run.premiumArtistCents + remainder).toBe(
      run.totalPremiumPoolCents,
    );
    expect(remainder).toBe(2278n);

    // A second run replaces the month's rows, never adds.
    const again = await revenueModule(ctx).calculate(month, null);
    expect(await monthRows(ctx.db.database.db, month)).toEqual(stored);
    expect(again.artistsProcessed).toBe(3);
    const [{ n }] = (await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from revenue_runs where month = ${month}`,
    )) as [{ n: number }];
    expect(n).toBe(2);
  });

  it('takes the share from the stream count: 80 % under 10,000, 75 % to 100,000, 70 % from it', async () => {
    const month = '2026-04';
    const seeded = await seedMonth(ctx.db.database.db, {
      month,
      artists: 3,
      listeners: [
        {
          premium: true,
          plays: [0, 1, 2].map((artist) => ({ artist, ms: 1000 })),
        },
        { premium: false, plays: [] },
      ],
    });
    const free = seeded.listenerIds[1]!;
    // Free plays bring the artists to 9,999 / 10,000 / 100,000 streams.
    for (const [i, streams] of [9_999, 10_000, 100_000].entries()) {
      await ctx.db.database.db.execute(
        sql`insert into stream_analytics (user_id, song_id, played_at, listened_ms)
            select ${free}, s.id, ${`${month}-10T00:00:00Z`}::timestamptz, 0
            from songs s, generate_series(1, ${streams - 1})
            where s.artist_id = ${seeded.artistIds[i]!}`,
      );
    }
    await revenueModule(ctx).calculate(month, null);
    const stored = await monthRows(ctx.db.database.db, month);
    const byArtist = new Map(stored.map((r) => [r.artist_id, r]));
    // 949 / 3 = 316.33 each; the leftover cent goes to the smallest id.
    const smallest = [...seeded.artistIds].sort()[0];
    const expected = [
      [9_999, 80n],
      [10_000, 75n],
      [100_000, 70n],
    ] as const;
    for (const [i, [streams, share]] of expected.entries()) {
      const id = seeded.artistIds[i]!;
      const alloc = id === smallest ? 317n : 316n;
      expect(byArtist.get(id)).toMatchObject({ streams, premium: (alloc * share) / 100n });
    }
  });

  it('counts a listener premium in the month when a paid-for subscription overlaps it', async () => {
    const month = '2026-05';
    const statuses = [
      // [status, period start, period end, created, counted]
      ['active', '2026-05-20', '2026-06-20', '2026-05-20', true],
      ['active', '2026-04-10', '2026-05-10', '2026-04-10', true],
      // Renewed in place after the month: created before it, so it ran through it.
      ['active', '2026-06-03', '2026-07-03', '2026-02-03', true],
      ['canceled', '2026-04-15', '2026-05-15', '2026-04-15', true],
      ['past_due', '2026-05-02', '2026-06-02', '2026-01-02', true],
      ['active', '2026-04-01', '2026-05-01', '2026-04-01', false],
      ['active', '2026-06-01', '2026-07-01', '2026-06-01', false],
      ['trialing', '2026-05-01', '2026-05-15', '2026-05-01', false],
      ['incomplete', '2026-05-01', '2026-06-01', '2026-05-01', false],
      ['incomplete_expired', '2026-05-01', '2026-06-01', '2026-05-01', false],
      ['paused', '2026-05-01', '2026-06-01', '2026-05-01', false],
    ] as const;
    const seeded = await seedMonth(ctx.db.database.db, {
      month,
      artists: 1,
      listeners: statuses.map(() => ({ premium: false, plays: [{ artist: 0, ms: 5000 }] })),
    });
    for (const [i, [status, start, end, created]] of statuses.entries())
      await ctx.db.database.db.execute(
        sql`insert into subscriptions (user_id, provider, status, current_period_start,
                                       current_period_end, created_at)
            values (${seeded.listenerIds[i]!}, 'stripe', ${status}, ${start}::timestamptz,
                    ${end}::timestamptz, ${created}::timestamptz)`,
      );
    const run = await revenueModule(ctx).calculate(month, null);
    const counted = statuses.filter((s) => s[4]).length;
    expect(run.premiumListeners).toBe(counted);
    expect(run.totalPremiumPoolCents).toBe(BigInt(counted) * 999n);
    const [row] = await monthRows(ctx.db.database.db, month);
    expect(row!.premium).toBe((BigInt(counted) * 949n * 80n) / 100n);
  });

  it('refuses a malformed month (400) and one that has not begun (422), writing nothing', async () => {
    const before = await revenueState(ctx);
    const module = revenueModule(ctx);
    for (const bad of ['2026-13', '2026-1', '26-01', '2026-00', '', '2026-01-01', "2026-01'"])
      await expect(module.calculate(bad, null)).rejects.toMatchObject({
        code: 'validation_failed',
        message: revenueMessages.monthInvalid,
      });
    const now = ctx.clock.now();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    await expect(module.calculate(next.toISOString().slice(0, 7), null)).rejects.toMatchObject({
      code: 'month_not_started',
      message: revenueMessages.monthNotStarted,
    });
    await expect(module.calculate('2999-01', null)).rejects.toMatchObject({
      code: 'month_not_started',
    });
    expect(await revenueState(ctx)).toEqual(before);
  });

  it('the admin calculates the current month; concurrent runs serialize or one gets 409', async () => {
    const month = currentMonth(ctx);
    const seeded = await seedMonth(ctx.db.database.db, {
      month,
      artists: 2,
      listeners: [
        {
          premium: true,
          plays: [
            { artist: 0, ms: 1000 },
            { artist: 1, ms: 3000 },
          ],
        },
      ],
    });
    const answers = await Promise.all([
      post(ctx, '/api/admin/revenue/calculate', admin),
      post(ctx, '/api/admin/revenue/calculate', admin),
      post(ctx, '/api/admin/revenue/calculate', admin),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0], answers[0]!.body).toBe(200);
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect(a.json().error).toMatchObject({
        code: 'revenue_run_in_progress',
        message: revenueMessages.runInProgress,
      });
    }
    const ok = answers.find((a) => a.statusCode === 200)!.json();
    expect(ok).toMatchObject({
      month,
      artistsProcessed: 2,
      totalPremiumPool: 9.99,
      totalPremiumPoolCents: 999,
    });
    const stored = await monthRows(ctx.db.database.db, month);
    expect(stored.map((r) => [r.artist_id, r.premium])).toEqual(
      [
        // 949 × ¼ = 237.25, × ¾ = 711.75: the leftover cent to the larger remainder
        [seeded.artistIds[0]!, (237n * 80n) / 100n],
        [seeded.artistIds[1]!, (712n * 80n) / 100n],
      ].sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
    );
    const last = await get(ctx, '/api/admin/revenue/last', admin);
    expect(last.json().run).toMatchObject({ month, artistsProcessed: 2, totalPremiumPool: 9.99 });
  });

  it("credits paid tips to the artist's month less the fee, keeping premium and ad; idempotent", async () => {
    const month = '2026-03';
    const module = revenueModule(ctx);
    const [before] = (await rows<{ premium: string; ad: string; tip: string }>(
      ctx,
      sql`select premium_revenue_cents::text as premium, ad_revenue_cents::text as ad,
                 tip_revenue_cents::text as tip
          from artist_revenue where month = ${month} and tip_revenue_cents > 0`,
    )) as [{ premium: string; ad: string; tip: string }];
    const [{ artist_id: artistId }] = (await rows<{ artist_id: string }>(
      ctx,
      sql`select artist_id from artist_revenue where month = ${month} and tip_revenue_cents > 0`,
    )) as [{ artist_id: string }];
    const tip = (amount: number, fee: number, status: string, paidAt: string | null) =>
      ctx.db.database.db.execute(
        sql`insert into tips (artist_id, amount_cents, fee_cents, provider, provider_ref, status, paid_at)
            values (${artistId}, ${amount}, ${fee}, 'local', ${`ref-${Math.random()}`}, ${status},
                    ${paidAt}::timestamptz)`,
      );
    await tip(1000, 50, 'paid', '2026-03-31T23:59:59.999Z');
    await tip(2000, 100, 'pending', null);
    await tip(3000, 150, 'paid', '2026-04-01T00:00:00Z');
    await ctx.db.database.db.transaction(async (tx) => {
      await module.refreshTipRevenue(tx, artistId, month);
      await module.refreshTipRevenue(tx, artistId, month);
    });
    const [after] = (await rows<{ premium: string; ad: string; tip: string; total: string }>(
      ctx,
      sql`select premium_revenue_cents::text as premium, ad_revenue_cents::text as ad,
                 tip_revenue_cents::text as tip, total_revenue_cents::text as total
          from artist_revenue where month = ${month} and artist_id = ${artistId}`,
    )) as [{ premium: string; ad: string; tip: string; total: string }];
    expect(after).toEqual({
      premium: before.premium,
      ad: before.ad,
      tip: String(Number(before.tip) + 950),
      total: String(Number(before.premium) + Number(before.ad) + Number(before.tip) + 950),
    });
    // A month with no row yet gets one holding only the tips.
    await ctx.db.database.db.transaction((tx) => module.refreshTipRevenue(tx, artistId, '2026-04'));
    const april = (await monthRows(ctx.db.database.db, '2026-04')).find(
      (r) => r.artist_id === artistId,
    );
    expect(april).toMatchObject({ premium: 0n, ad: 0n, tip: 2850n, total: 2850n, streams: 0 });
    // The month's run counts the same tips.
    await module.calculate('2026-03', null);
    const rerun = (await monthRows(ctx.db.database.db, month)).find(
      (r) => r.artist_id === artistId,
    );
    expect(rerun).toMatchObject({ tip: BigInt(before.tip) + 950n });
  });

  it('shows an artist their own months, newest first, and CSV statements; others are refused', async () => {
    const db = ctx.db.database.db;
    for (const [month, premium, ad, tip, streams] of [
      ['2025-12', 100, 0, 0, 4],
      ['2026-01', 1234, 56, 789, 10],
      ['2026-02', 5, 1, 0, 1],
    ] as const)
      await db.execute(
        sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, ad_revenue_cents,
                                        tip_revenue_cents, total_revenue_cents, total_streams)
            values (${artist.userId}, ${month}, ${premium}, ${ad}, ${tip}, ${premium + ad + tip},
                    ${streams})`,
      );
    const res = await get(ctx, '/api/artist/revenue', artist);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      {
        month: '2026-02',
        premium_revenue: 5,
        ad_revenue: 1,
        tip_revenue: 0,
        total_revenue: 6,
        total_streams: 1,
      },
      {
        month: '2026-01',
        premium_revenue: 1234,
        ad_revenue: 56,
        tip_revenue: 789,
        total_revenue: 2079,
        total_streams: 10,
      },
      {
        month: '2025-12',
        premium_revenue: 100,
        ad_revenue: 0,
        tip_revenue: 0,
        total_revenue: 100,
        total_streams: 4,
      },
    ]);

    const year = await get(ctx, '/api/artist/revenue/statement?year=2026', artist);
    expect(year.statusCode, year.body).toBe(200);
    expect(year.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(year.headers['content-disposition']).toBe(
      'attachment; filename="canto-statement-2026.csv"',
    );
    expect(year.body).toBe(
      [
        'month,premium_revenue_usd,ad_revenue_usd,tip_revenue_usd,total_revenue_usd,total_streams',
        '2026-01,12.34,0.56,7.89,20.79,10',
        '2026-02,0.05,0.01,0.00,0.06,1',
        'total,12.39,0.57,7.89,20.85,11',
        '',
      ].join('\r\n'),
    );
    const month = await get(ctx, '/api/artist/revenue/statement?month=2025-12', artist);
    expect(month.body.split('\r\n').slice(1, 3)).toEqual([
      '2025-12,1.00,0.00,0.00,1.00,4',
      'total,1.00,0.00,0.00,1.00,4',
    ]);
    const empty = await get(ctx, '/api/artist/revenue/statement?month=2020-01', artist);
    expect(empty.body.split('\r\n')[1]).toBe('total,0.00,0.00,0.00,0.00,0');

    for (const bad of [
      '',
      '?month=2026-13',
      '?month=2026-1',
      '?year=26',
      '?year=2026&month=2026-01',
      '?month=%3D1%2B1',
      '?year=2026x',
    ]) {
      const r = await get(ctx, `/api/artist/revenue/statement${bad}`, artist);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error.code).toBe('validation_failed');
    }
    for (const [user, status] of [
      [null, 401],
      [listener, 403],
      [admin, 403],
    ] as const) {
      expect((await get(ctx, '/api/artist/revenue', user)).statusCode).toBe(status);
      expect((await get(ctx, '/api/artist/revenue/statement?year=2026', user)).statusCode).toBe(
        status,
      );
    }
  });
});
