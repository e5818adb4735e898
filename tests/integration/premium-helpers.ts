import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { PremiumOverview } from '../../src/contracts/premium.contract.ts';
import type { TestContext } from '../helpers/test-app.ts';
import { signIn, signUp } from './auth-helpers.ts';
import { rows } from './songs-helpers.ts';

/** A listener who can sign in again once the test clock has moved past their session. */
export type Listener = {
  userId: string;
  email: string;
  password: string;
  headers: { authorization: string };
};

export async function makeListener(ctx: TestContext, name = 'Premium Listener'): Promise<Listener> {
  const { res, payload } = await signUp(ctx.app, { display_name: name });
  expect(res.statusCode, res.body).toBe(201);
  return {
    userId: res.json().user.id,
    email: payload.email,
    password: payload.password,
    headers: { authorization: `Bearer ${res.json().access_token}` },
  };
}

/** A new session at the clock's time (a month on, the old one has ended). */
export async function signInAgain(ctx: TestContext, user: Listener): Promise<void> {
  const token = await signIn(ctx.app, user.email, user.password);
  user.headers = { authorization: `Bearer ${token}` };
}

export function premiumApi(ctx: TestContext) {
  const call = (method: 'GET' | 'POST', url: string, user: Listener | null, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: user ? user.headers : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    async subscribed(user: Listener): Promise<boolean> {
      const res = await call('GET', '/api/subscription', user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ subscribed: boolean }>().subscribed;
    },
    async overview(user: Listener): Promise<PremiumOverview> {
      const res = await call('GET', '/api/premium', user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PremiumOverview>();
    },
  };
}

export type SubscriptionRecord = {
  user_id: string;
  provider: string;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  status: string;
  current_period_start: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  updated_at: string;
};

export const subscriptionRows = (ctx: TestContext, userId: string) =>
  rows<SubscriptionRecord>(
    ctx,
    sql`select user_id, provider, provider_customer_id, provider_subscription_id, status,
               to_json(current_period_start)#>>'{}' as current_period_start,
               to_json(current_period_end)#>>'{}' as current_period_end,
               cancel_at_period_end, to_json(updated_at)#>>'{}' as updated_at
        from subscriptions where user_id = ${userId} order by created_at`,
  );

/** Every subscription and payment event, to prove a refused request wrote nothing. */
export async function paymentState(ctx: TestContext) {
  const [subs] = await rows<{ n: number; h: string }>(
    ctx,
    sql`select count(*)::int as n, md5(coalesce(string_agg(s::text, ',' order by s.id), '')) as h
        from subscriptions s`,
  );
  const [events] = await rows<{ n: number; h: string }>(
    ctx,
    sql`select count(*)::int as n,
               md5(coalesce(string_agg(e::text, ',' order by e.provider, e.event_id), '')) as h
        from payment_events e`,
  );
  return { subscriptions: subs, events };
}

/** The same instant as the database wrote it, for comparing with ISO strings from the API. */
export const iso = (v: string | Date) => new Date(v).toISOString();
