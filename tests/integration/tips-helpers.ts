import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext } from '../helpers/test-app.ts';
import { makeUser, rows } from './songs-helpers.ts';

export type TipUser = Awaited<ReturnType<typeof makeUser>>;

export function tipsApi(ctx: TestContext) {
  return (method: 'GET' | 'POST', url: string, user: TipUser | null, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: user ? user.headers : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

export type TipRecord = {
  id: string;
  listener_id: string;
  artist_id: string;
  amount_cents: string;
  fee_cents: string;
  provider: string;
  provider_ref: string;
  status: string;
  message: string | null;
  paid_at: string | null;
};

export const tipRows = (ctx: TestContext, artistId: string) =>
  rows<TipRecord>(
    ctx,
    sql`select id, listener_id, artist_id, amount_cents::text, fee_cents::text, provider,
               provider_ref, status, message, to_json(paid_at)#>>'{}' as paid_at
        from tips where artist_id = ${artistId} order by created_at, id`,
  );

/** Every tip, payment event and revenue row, to prove a refused request wrote nothing. */
export async function moneyState(ctx: TestContext) {
  const [state] = await rows<{ tips: string; events: string; revenue: string }>(
    ctx,
    sql`select
          (select count(*) || ':' || md5(coalesce(string_agg(t::text, ',' order by t.id), ''))
             from tips t) as tips,
          (select count(*) || ':' || md5(coalesce(string_agg(e::text, ',' order by e.event_id), ''))
             from payment_events e) as events,
          (select count(*) || ':' || md5(coalesce(string_agg(r::text, ',' order by r.id), ''))
             from artist_revenue r) as revenue`,
  );
  return state!;
}

export async function expectRefused(
  res: {
    statusCode: number;
    body: string;
    json: () => { error: { code: string; message: string } };
  },
  status: number,
  code: string,
  message?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
  if (message) expect(res.json().error.message).toBe(message);
}

/** The artist's tip revenue of the clock's month, as GET /api/artist/revenue shows it (0: no row). */
export async function tipRevenueOf(ctx: TestContext, artist: TipUser): Promise<number> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/artist/revenue',
    headers: artist.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const month = ctx.clock.now().toISOString().slice(0, 7);
  const row = res
    .json<{ items: { month: string; tip_revenue: number; total_revenue: number }[] }>()
    .items.find((m) => m.month === month);
  return row?.tip_revenue ?? 0;
}

/** Σ (amount − fee) of the artist's paid tips, from the rows themselves. */
export async function paidNet(ctx: TestContext, artistId: string): Promise<number> {
  return (await tipRows(ctx, artistId))
    .filter((t) => t.status === 'paid')
    .reduce((sum, t) => sum + Number(t.amount_cents) - Number(t.fee_cents), 0);
}
