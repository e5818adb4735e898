import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';
import { makeAdmin, seedRevenue, withdrawalsApi } from './withdrawals-helpers.ts';

/*
 * Balances under parallel requests (docs/decisions/0029): each request and each decision locks
 * the artist's account row, then re-reads the balance, so together they never overdraw and a
 * status changes once. PGlite has one connection (requests queue there), so the race needs the
 * PostgreSQL server, where the app's pool runs up to 10 transactions at once.
 */

const onPostgres = dbKinds.includes('postgres');
if (!onPostgres) {
  // tests/helpers/global-setup.ts fails the run instead under CANTO_REQUIRE_POSTGRES=1 (CI).
  console.warn('withdrawals-concurrency.test.ts skipped: PostgreSQL is not reachable');
}

describe.runIf(onPostgres)('parallel withdrawals on postgres', () => {
  const ctx = useTestApp('postgres');
  const api = withdrawalsApi(ctx);
  let artist: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Racing Artist');
    admin = await makeAdmin(ctx, 'Racing Admin');
  });

  const totals = async () => {
    const [t] = await rows<{ revenue: string; taken: string; pending: string }>(
      ctx,
      sql`select
            (select coalesce(sum(total_revenue_cents), 0) from artist_revenue where artist_id = ${artist.userId})::text as revenue,
            coalesce(sum(amount_cents) filter (where status <> 'rejected'), 0)::text as taken,
            coalesce(sum(amount_cents) filter (where status = 'pending'), 0)::text as pending
          from artist_withdrawals where artist_id = ${artist.userId}`,
    );
    return { revenue: Number(t!.revenue), taken: Number(t!.taken), pending: Number(t!.pending) };
  };

  it('20 parallel requests that together exceed the balance never overdraw (50 rounds)', async () => {
    let accepted = 0;
    let refused = 0;
    for (let round = 0; round < 50; round++) {
      // $100 more each round; 20 requests of $10.00–$19.50 ask for about $295.
      await seedRevenue(ctx, artist.userId, 10_000, `2000-01`);
      const amounts = Array.from({ length: 20 }, (_, i) => 10 + ((i * 7 + round) % 20) / 2);
      const { revenue: before } = await totals();
      const answers = await Promise.all(
        amounts.map((amount) =>
          api
            .request(artist, { amount, payment_method: 'stripe' })
            .then((res) => ({ amount, res })),
        ),
      );
      const refusedAmounts: number[] = [];
      for (const { amount, res } of answers) {
        if (res.statusCode === 201) accepted++;
        else {
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json().error.code).toBe('insufficient_balance');
          refusedAmounts.push(Math.round(amount * 100));
          refused++;
        }
      }
      const t = await totals();
      expect(t.revenue).toBe(before);
      expect(t.taken, `round ${round}`).toBeLessThanOrEqual(t.revenue);
      const balance = await api.balance(artist);
      expect(balance.available).toBeGreaterThanOrEqual(0);
      expect(balance.available).toBe(t.revenue - t.taken);
      // Nothing was refused that still fits: each refused amount is above what is left.
      for (const cents of refusedAmounts) expect(cents).toBeGreaterThan(balance.available);

      // Approving every pending request at once moves them to completed, each exactly once.
      const pending = (
        (await api.call('GET', '/api/artist/withdrawals', artist)).json().items as {
          id: string;
          status: string;
        }[]
      ).filter((w) => w.status === 'pending');
      const decided = await Promise.all(pending.map((w) => api.approve(admin, w.id)));
      for (const res of decided) expect(res.statusCode, res.body).toBe(200);
      const after = await totals();
      expect(after.pending).toBe(0);
      expect(after.taken).toBe(t.taken);
      expect(await api.balance(artist)).toMatchObject({
        balance: t.revenue - t.taken,
        available: t.revenue - t.taken,
        pending: 0,
      });
    }
    // Both outcomes happened: the race was real.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  }, 300_000);

  it('two parallel decisions on one request: exactly one 200, the other 409 (20 rounds)', async () => {
    await seedRevenue(ctx, artist.userId, 1_000_000, '2000-02');
    for (let round = 0; round < 20; round++) {
      const made = await api.request(artist, { amount: 10, payment_method: 'stripe' });
      expect(made.statusCode, made.body).toBe(201);
      const id = made.json().id as string;
      // Approve against approve, then approve against reject.
      const pair =
        round % 2 === 0
          ? [api.approve(admin, id), api.approve(admin, id)]
          : [api.approve(admin, id), api.reject(admin, id)];
      const statuses = (await Promise.all(pair)).map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409]);
      const [row] = await rows<{ status: string }>(
        ctx,
        sql`select status from artist_withdrawals where id = ${id}`,
      );
      expect(['completed', 'rejected']).toContain(row!.status);
    }
    // One notification per decided request, never two.
    const [counts] = await rows<{ decided: string; notified: string }>(
      ctx,
      sql`select
            (select count(*) from artist_withdrawals where artist_id = ${artist.userId} and status in ('completed', 'rejected'))::text as decided,
            (select count(*) from notifications where user_id = ${artist.userId} and type in ('withdrawal_completed', 'withdrawal_rejected'))::text as notified`,
    );
    expect(counts!.notified).toBe(counts!.decided);
  }, 120_000);
});
