import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext } from '../helpers/test-app.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

/** An artist's earned revenue, written the way the monthly run writes it. */
export async function seedRevenue(
  ctx: TestContext,
  artistId: string,
  cents: number,
  month?: string,
) {
  const m =
    month ??
    `20${String(10 + crypto.randomInt(80))}-${String(1 + crypto.randomInt(12)).padStart(2, '0')}`;
  await ctx.db.database.db.execute(
    sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, total_revenue_cents)
        values (${artistId}, ${m}, ${cents}, ${cents})
        on conflict (artist_id, month) do update
          set premium_revenue_cents = artist_revenue.premium_revenue_cents + excluded.premium_revenue_cents,
              total_revenue_cents = artist_revenue.total_revenue_cents + excluded.total_revenue_cents`,
  );
}

export async function makeAdmin(ctx: TestContext, name = 'Admin'): Promise<TestUser> {
  const admin = await makeUser(ctx, 'listener', name);
  await ctx.db.database.db.execute(
    sql`insert into user_roles (user_id, role) values (${admin.userId}, 'admin')`,
  );
  return admin;
}

export function withdrawalsApi(ctx: TestContext) {
  const call = (
    method: 'GET' | 'POST',
    url: string,
    user: TestUser | null,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...(user ? user.headers : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    request: (user: TestUser, payload: unknown, headers: Record<string, string> = {}) =>
      call('POST', '/api/artist/withdrawals', user, payload, headers),
    approve: (admin: TestUser, id: string, notes?: string) =>
      call(
        'POST',
        `/api/admin/withdrawals/${id}/approve`,
        admin,
        notes === undefined ? {} : { notes },
      ),
    reject: (admin: TestUser, id: string, notes?: string) =>
      call(
        'POST',
        `/api/admin/withdrawals/${id}/reject`,
        admin,
        notes === undefined ? {} : { notes },
      ),
    async balance(user: TestUser) {
      const res = await call('GET', '/api/artist/balance', user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ balance: number; available: number; pending: number }>();
    },
  };
}

/** Everything a refused request could have written, to prove it wrote nothing. */
export async function withdrawalState(ctx: TestContext) {
  const [state] = await rows<{ w: string; k: string; n: string }>(
    ctx,
    sql`select
          (select coalesce(string_agg(id::text || status::text || amount_cents::text || coalesce(notes, '') || coalesce(processed_at::text, ''), ',' order by id), '') from artist_withdrawals) as w,
          (select count(*)::text from withdrawal_idempotency_keys) as k,
          (select count(*)::text from notifications where type in ('withdrawal_completed', 'withdrawal_rejected')) as n`,
  );
  return state;
}
