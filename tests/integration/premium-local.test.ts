// Premium (docs/decisions/0022) with PAYMENTS=local (the default): create-checkout gives Canto's
// own test-mode checkout page, whose Confirm is the only way to premium here; the manage page
// cancels at the period's end. Time moves on the test clock.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addMonths,
  LOCAL_CHECKOUT_TTL_MS,
  premiumMessages,
} from '../../src/core/validation/premium.rules.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  iso,
  makeListener,
  paymentState,
  premiumApi,
  signInAgain,
  subscriptionRows,
  type Listener,
} from './premium-helpers.ts';
import { rows } from './songs-helpers.ts';
import { signedEvent, stripeSubscription } from '../helpers/fake-stripe.ts';

const sessionOf = (url: string) => new URL(url, 'http://canto.test').searchParams.get('session')!;

describe.each(dbKinds)('premium with local test-mode payments on %s', (kind) => {
  const ctx = useTestApp(kind);
  const api = premiumApi(ctx);
  const checkout = async (user: Listener, payload?: unknown) => {
    const res = await api.call('POST', '/api/premium/checkout', user, payload);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(/^\/premium\/checkout\?session=[\w.-]+$/);
    return sessionOf(url);
  };
  const confirm = (user: Listener, session: string) =>
    api.call('POST', '/api/premium/local/checkout/confirm', user, { session });

  let listener: Listener;
  beforeAll(async () => {
    listener = await makeListener(ctx);
  });

  it('a new listener is not subscribed; the overview shows the plan and test mode', async () => {
    expect(await api.subscribed(listener)).toBe(false);
    expect(await api.overview(listener)).toEqual({
      subscribed: false,
      payments: 'local',
      price_cents: 999,
      subscription: null,
    });
    // Nothing to manage yet.
    const portal = await api.call('POST', '/api/premium/portal', listener);
    expect(portal.statusCode).toBe(404);
    expect(portal.json().error.message).toBe(premiumMessages.nothingToManage);
  });

  it('create-checkout writes nothing and ignores a body claiming premium', async () => {
    const before = await paymentState(ctx);
    const session = await checkout(listener, {
      subscribed: true,
      status: 'active',
      current_period_end: '2999-01-01T00:00:00Z',
    });
    expect(await paymentState(ctx)).toEqual(before);
    expect(await api.subscribed(listener)).toBe(false);

    const view = await api.call(
      'GET',
      `/api/premium/local/checkout?session=${encodeURIComponent(session)}`,
      listener,
    );
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toEqual({
      price_cents: 999,
      // The link carries its expiry in whole seconds.
      expires_at: iso(
        new Date(Math.floor((ctx.clock.now().getTime() + LOCAL_CHECKOUT_TTL_MS) / 1000) * 1000),
      ),
      confirmed: false,
    });
  });

  it('confirm starts one month of premium, once, for the session owner only', async () => {
    const user = await makeListener(ctx, 'Confirmer');
    const other = await makeListener(ctx, 'Someone Else');
    const session = await checkout(user);
    const before = await paymentState(ctx);

    // Another signed-in user cannot see or confirm it; a tampered session is refused.
    for (const [who, s] of [
      [other, session],
      [user, session.slice(0, -2) + (session.endsWith('AA') ? 'BB' : 'AA')],
      [user, 'not-a-session'],
    ] as const) {
      const res = await confirm(who, s);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toEqual({
        code: 'validation_failed',
        message: premiumMessages.checkoutInvalid,
      });
      const view = await api.call(
        'GET',
        `/api/premium/local/checkout?session=${encodeURIComponent(s)}`,
        who,
      );
      expect(view.statusCode).toBe(400);
    }
    expect(await paymentState(ctx)).toEqual(before);
    expect(await api.subscribed(other)).toBe(false);

    const now = ctx.clock.now();
    const res = await confirm(user, session);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      subscribed: true,
      payments: 'local',
      price_cents: 999,
      subscription: {
        provider: 'local',
        status: 'active',
        current_period_start: now.toISOString(),
        current_period_end: addMonths(now, 1).toISOString(),
        cancel_at_period_end: false,
      },
    });
    expect(await api.subscribed(user)).toBe(true);
    expect(await api.subscribed(other)).toBe(false);

    // A second confirm of the same session (a double click, a replay) changes nothing.
    const snapshot = await paymentState(ctx);
    const again = await confirm(user, session);
    expect(again.statusCode).toBe(200);
    expect(again.json().subscribed).toBe(true);
    expect(await paymentState(ctx)).toEqual(snapshot);
    const [row, ...more] = await subscriptionRows(ctx, user.userId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ provider: 'local', status: 'active', cancel_at_period_end: false });
    const view = await api.call(
      'GET',
      `/api/premium/local/checkout?session=${encodeURIComponent(session)}`,
      user,
    );
    expect(view.json().confirmed).toBe(true);

    // While premium runs: no second checkout.
    const second = await api.call('POST', '/api/premium/checkout', user);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe(premiumMessages.alreadySubscribed);
  });

  it('two open sessions confirmed (one after the other, or at once) give one subscription', async () => {
    for (const together of [false, true]) {
      const user = await makeListener(ctx, together ? 'Racer' : 'Twice');
      const [a, b, c] = [await checkout(user), await checkout(user), await checkout(user)];
      if (together) {
        const answers = await Promise.all([confirm(user, a), confirm(user, b), confirm(user, c)]);
        expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      } else {
        for (const s of [a, b, c]) expect((await confirm(user, s)).statusCode).toBe(200);
      }
      expect(await subscriptionRows(ctx, user.userId)).toHaveLength(1);
      expect(await api.subscribed(user)).toBe(true);
    }
  });

  it('an expired checkout link is refused and writes nothing', async () => {
    const user = await makeListener(ctx, 'Late');
    const session = await checkout(user);
    ctx.clock.advance(LOCAL_CHECKOUT_TTL_MS);
    await signInAgain(ctx, user);
    const before = await paymentState(ctx);
    const res = await confirm(user, session);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(premiumMessages.checkoutExpired);
    expect(await paymentState(ctx)).toEqual(before);
    expect(await api.subscribed(user)).toBe(false);
  });

  it('cancel at period end keeps premium until the end; resume takes it back before then', async () => {
    const user = await makeListener(ctx, 'Canceller');
    const start = ctx.clock.now();
    expect((await confirm(user, await checkout(user))).statusCode).toBe(200);
    const end = addMonths(start, 1);

    const portal = await api.call('POST', '/api/premium/portal', user);
    expect(portal.statusCode).toBe(200);
    expect(portal.json()).toEqual({ url: '/premium/manage' });

    const cancelled = await api.call('POST', '/api/premium/local/cancel', user);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      subscribed: true,
      subscription: { cancel_at_period_end: true, current_period_end: end.toISOString() },
    });
    // Resume before the end, then cancel again: the manage page's two buttons.
    const resumed = await api.call('POST', '/api/premium/local/resume', user);
    expect(resumed.json().subscription.cancel_at_period_end).toBe(false);
    await api.call('POST', '/api/premium/local/cancel', user);

    // A second before the end: still premium.
    ctx.clock.advance(end.getTime() - ctx.clock.now().getTime() - 1000);
    await signInAgain(ctx, user);
    expect(await api.subscribed(user)).toBe(true);
    // At the end: over, and it does not renew.
    ctx.clock.advance(1000);
    expect(await api.subscribed(user)).toBe(false);
    expect(await api.overview(user)).toMatchObject({
      subscribed: false,
      subscription: { cancel_at_period_end: true, current_period_end: end.toISOString() },
    });
    // Nothing left to cancel or resume.
    for (const action of ['cancel', 'resume']) {
      const res = await api.call('POST', `/api/premium/local/${action}`, user);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(premiumMessages.nothingToManage);
    }
    // Premium again through a new checkout.
    expect((await confirm(user, await checkout(user))).json().subscribed).toBe(true);
    expect(await subscriptionRows(ctx, user.userId)).toHaveLength(2);
  });

  it('a confirmed month ends at its period end; test mode charges and renews nothing', async () => {
    const user = await makeListener(ctx, 'One Month');
    const start = ctx.clock.now();
    await confirm(user, await checkout(user));
    ctx.clock.advance(addMonths(start, 1).getTime() - start.getTime());
    await signInAgain(ctx, user);
    expect(await api.subscribed(user)).toBe(false);
    const [row, ...more] = await subscriptionRows(ctx, user.userId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect(iso(row!.current_period_end)).toBe(addMonths(start, 1).toISOString());
    // Checkout is open again.
    expect((await confirm(user, await checkout(user))).json().subscribed).toBe(true);
  });

  it('premium routes need a session; the Stripe webhook is off in local mode', async () => {
    const before = await paymentState(ctx);
    for (const [method, url] of [
      ['GET', '/api/subscription'],
      ['GET', '/api/premium'],
      ['POST', '/api/premium/checkout'],
      ['POST', '/api/premium/portal'],
      ['GET', '/api/premium/local/checkout?session=x'],
      ['POST', '/api/premium/local/checkout/confirm'],
      ['POST', '/api/premium/local/cancel'],
      ['POST', '/api/premium/local/resume'],
    ] as const) {
      const res = await api.call(
        method,
        url,
        null,
        method === 'POST' ? { session: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    // A correctly signed event still grants nothing: this server takes no Stripe payments.
    const event = signedEvent(
      'customer.subscription.created',
      stripeSubscription({
        id: 'sub_local_mode',
        customer: 'cus_local_mode',
        userId: listener.userId,
        start: ctx.clock.now(),
        end: addMonths(ctx.clock.now(), 1),
      }),
      ctx.clock.now(),
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(premiumMessages.stripeOff);
    expect(await paymentState(ctx)).toEqual(before);
    const [{ n }] = (await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from subscriptions where user_id = ${listener.userId}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});
