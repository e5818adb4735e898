// Premium (docs/decisions/0022) with PAYMENTS=stripe, through the real `stripe` package against a
// local fake of the Stripe API (tests/helpers/fake-stripe.ts): checkout makes one customer per user
// and a subscription-mode session for STRIPE_PRICE_ID; subscription state comes only from webhooks
// signed with the package's test-header helper, each applied once, and events in any order end in
// Stripe's current state.
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { premiumMessages } from '../../src/core/validation/premium.rules.ts';
import {
  eventObject,
  signedEvent,
  startFakeStripe,
  STRIPE_TEST_ENV,
  stripeSubscription,
  type FakeStripe,
} from '../helpers/fake-stripe.ts';
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

const DAY = 86_400_000;

describe.each(dbKinds)('premium with Stripe payments on %s', (kind) => {
  let fake: FakeStripe;
  // Filled before useTestApp's beforeAll reads it: the fake's port is known once it listens.
  const env: Record<string, string> = { ...STRIPE_TEST_ENV, PUBLIC_URL: 'https://canto.example' };
  beforeAll(async () => {
    fake = await startFakeStripe();
    env.STRIPE_API_URL = fake.url;
  });
  afterAll(() => fake?.close());
  const ctx = useTestApp(kind, env);
  const api = premiumApi(ctx);

  let seq = 0;
  beforeEach(() => {
    seq += 1;
  });

  const deliver = (
    delivery: { payload: string; signature?: string },
    contentType = 'application/json',
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: {
        'content-type': contentType,
        ...(delivery.signature === undefined ? {} : { 'stripe-signature': delivery.signature }),
      },
      payload: delivery.payload,
    });

  /** Stripe's subscription as it is now, set on the fake, and an event about it delivered. */
  function stripeHas(
    user: Listener | null,
    customer: string,
    over: Partial<Parameters<typeof stripeSubscription>[0]> = {},
  ) {
    const now = ctx.clock.now();
    const sub = stripeSubscription({
      id: over.id ?? `sub_${kind}_${seq}`,
      customer,
      userId: user?.userId ?? null,
      start: now,
      end: new Date(now.getTime() + 30 * DAY),
      ...over,
    });
    fake.subscriptions.set(sub.id as string, sub);
    return sub;
  }
  const send = async (type: string, sub: Record<string, unknown>, extra = {}, id?: string) => {
    const res = await deliver(
      signedEvent(type, eventObject(type, sub, extra), ctx.clock.now(), { id }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true });
  };
  const retrieves = (subId: string) => fake.sent('GET', `/v1/subscriptions/${subId}`).length;

  it('create-checkout makes one customer per user and a subscription-mode session for the price', async () => {
    const user = await makeListener(ctx, 'Stripe Buyer');
    const before = await paymentState(ctx);
    const first = await api.call('POST', '/api/premium/checkout', user, { subscribed: true });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);

    const created = fake.sent('POST', '/v1/customers');
    expect(created).toHaveLength(1);
    expect(created[0]!.authorization).toBe(`Bearer ${STRIPE_TEST_ENV.STRIPE_SECRET_KEY}`);
    expect(created[0]!.form).toMatchObject({
      email: user.email,
      'metadata[canto_user_id]': user.userId,
    });
    expect(created[0]!.idempotencyKey).toBe(`canto-customer-${user.userId}`);
    const customer = [...fake.customers.values()].find(
      (c) => (c.metadata as Record<string, string>).canto_user_id === user.userId,
    )!;

    const [session] = fake.sent('POST', '/v1/checkout/sessions');
    expect(session!.form).toEqual({
      mode: 'subscription',
      customer: customer.id,
      'line_items[0][price]': STRIPE_TEST_ENV.STRIPE_PRICE_ID,
      'line_items[0][quantity]': '1',
      client_reference_id: user.userId,
      'metadata[canto_user_id]': user.userId,
      'subscription_data[metadata][canto_user_id]': user.userId,
      success_url: 'https://canto.example/premium?checkout=success',
      cancel_url: 'https://canto.example/premium?checkout=canceled',
    });

    // Checkout again (the first tab was closed): the same customer, found by its metadata.
    const second = await api.call('POST', '/api/premium/checkout', user);
    expect(second.statusCode).toBe(200);
    expect(fake.sent('POST', '/v1/customers')).toHaveLength(1);
    expect(fake.sent('POST', '/v1/checkout/sessions')[1]!.form.customer).toBe(customer.id);
    // Checkout grants nothing and writes nothing: only a webhook will.
    expect(await paymentState(ctx)).toEqual(before);
    expect(await api.subscribed(user)).toBe(false);

    // customer-portal before any subscription: Stripe knows the customer, so it opens.
    const portal = await api.call('POST', '/api/premium/portal', user);
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    expect(fake.sent('POST', '/v1/billing_portal/sessions').at(-1)!.form).toEqual({
      customer: customer.id,
      return_url: 'https://canto.example/premium',
    });
    // A user Stripe has never seen has nothing to manage.
    const stranger = await makeListener(ctx, 'Never Paid');
    const none = await api.call('POST', '/api/premium/portal', stranger);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe(premiumMessages.nothingToManage);
  });

  it('checkout.session.completed grants premium from the subscription Stripe reports; a redelivery changes nothing', async () => {
    const user = await makeListener(ctx, 'Completed');
    // The subscription carries no metadata here: the session's reference names the user.
    const sub = stripeHas(null, 'cus_completed');
    const event = signedEvent(
      'checkout.session.completed',
      eventObject('checkout.session.completed', sub, { client_reference_id: user.userId }),
      ctx.clock.now(),
    );
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await api.subscribed(user)).toBe(true);
    const [row, ...more] = await subscriptionRows(ctx, user.userId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      provider: 'stripe',
      provider_customer_id: 'cus_completed',
      provider_subscription_id: sub.id,
      status: 'active',
      cancel_at_period_end: false,
    });
    const items = (sub.items as { data: Array<Record<string, number>> }).data[0]!;
    expect(iso(row!.current_period_end)).toBe(iso(new Date(items.current_period_end! * 1000)));

    const state = await paymentState(ctx);
    const fetched = retrieves(sub.id as string);
    ctx.clock.advance(1000);
    const again = await deliver(event);
    expect(again.statusCode).toBe(200);
    expect(await paymentState(ctx)).toEqual(state);
    expect(retrieves(sub.id as string)).toBe(fetched);

    // The stored customer now opens the portal without asking Stripe to search.
    const searches = fake.sent('GET', '/v1/customers/search').length;
    const portal = await api.call('POST', '/api/premium/portal', user);
    expect(portal.statusCode).toBe(200);
    expect(fake.sent('POST', '/v1/billing_portal/sessions').at(-1)!.form.customer).toBe(
      'cus_completed',
    );
    expect(fake.sent('GET', '/v1/customers/search')).toHaveLength(searches);
    // While premium runs, no second checkout.
    expect((await api.call('POST', '/api/premium/checkout', user)).statusCode).toBe(409);
  });

  it('follows every event type: payment failed, paid, cancel at period end, deleted', async () => {
    const user = await makeListener(ctx, 'Lifecycle');
    const customer = 'cus_lifecycle';
    let sub = stripeHas(user, customer);
    const id = sub.id as string;
    await send('customer.subscription.created', sub);
    expect(await api.subscribed(user)).toBe(true);

    // Renewal fails: Stripe marks it past_due; premium stops.
    ctx.clock.advance(30 * DAY);
    await signInAgain(ctx, user);
    sub = stripeHas(user, customer, { id, status: 'past_due', start: ctx.clock.now() });
    await send('invoice.payment_failed', sub);
    expect((await subscriptionRows(ctx, user.userId))[0]!.status).toBe('past_due');
    expect(await api.subscribed(user)).toBe(false);

    // The retry is paid: active again for the new period.
    sub = stripeHas(user, customer, { id, status: 'active', start: ctx.clock.now() });
    await send('invoice.paid', sub);
    expect(await api.subscribed(user)).toBe(true);
    const periodEnd = new Date(ctx.clock.now().getTime() + 30 * DAY);
    expect(iso((await subscriptionRows(ctx, user.userId))[0]!.current_period_end)).toBe(
      iso(new Date(Math.floor(periodEnd.getTime() / 1000) * 1000)),
    );

    // Cancelled in the portal: premium until the period ends.
    sub = stripeHas(user, customer, {
      id,
      start: ctx.clock.now(),
      cancelAtPeriodEnd: true,
      canceledAt: ctx.clock.now(),
    });
    await send('customer.subscription.updated', sub);
    expect((await subscriptionRows(ctx, user.userId))[0]!.cancel_at_period_end).toBe(true);
    expect(await api.subscribed(user)).toBe(true);

    // The period ends: Stripe deletes it.
    sub = stripeHas(user, customer, {
      id,
      status: 'canceled',
      start: ctx.clock.now(),
      cancelAtPeriodEnd: true,
      canceledAt: ctx.clock.now(),
    });
    await send('customer.subscription.deleted', sub);
    expect((await subscriptionRows(ctx, user.userId))[0]!.status).toBe('canceled');
    expect(await api.subscribed(user)).toBe(false);
    expect(await subscriptionRows(ctx, user.userId)).toHaveLength(1);
  });

  it('events out of order end in the state Stripe has now', async () => {
    const user = await makeListener(ctx, 'Out Of Order');
    const customer = 'cus_disorder';
    const active = stripeHas(user, customer);
    const id = active.id as string;
    const canceled = { ...active, status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) };

    // Stripe has already cancelled it when the first events arrive: deleted first, then the
    // older created and updated (whose own objects still say active).
    fake.subscriptions.set(id, canceled);
    await send('customer.subscription.deleted', canceled);
    await send('customer.subscription.updated', active);
    await send('customer.subscription.created', active);
    await send('invoice.paid', active);
    const [row, ...more] = await subscriptionRows(ctx, user.userId);
    expect(more).toEqual([]);
    expect(row!.status).toBe('canceled');
    expect(await api.subscribed(user)).toBe(false);

    // Even a stale answer (a fetch that began before the cancel) cannot revive it.
    fake.subscriptions.set(id, active);
    await send('customer.subscription.updated', active);
    expect((await subscriptionRows(ctx, user.userId))[0]!.status).toBe('canceled');

    // A stale snapshot of an earlier period does not move a live subscription back.
    const other = await makeListener(ctx, 'Stale Period');
    const current = stripeHas(other, 'cus_stale', { id: `sub_stale_${kind}` });
    await send('customer.subscription.created', current);
    const stored = (await subscriptionRows(ctx, other.userId))[0]!;
    const earlier = stripeHas(other, 'cus_stale', {
      id: current.id as string,
      status: 'past_due',
      start: new Date(ctx.clock.now().getTime() - 30 * DAY),
      end: ctx.clock.now(),
    });
    await send('customer.subscription.updated', earlier);
    expect((await subscriptionRows(ctx, other.userId))[0]).toMatchObject({
      status: 'active',
      current_period_end: stored.current_period_end,
    });
  });

  it('finds the user by the stored customer or its metadata; a subscription of nobody grants nothing', async () => {
    const user = await makeListener(ctx, 'By Customer');
    // A customer made by Canto's checkout carries the user id in its metadata.
    expect((await api.call('POST', '/api/premium/checkout', user)).statusCode).toBe(200);
    const customer = [...fake.customers.values()].find(
      (c) => (c.metadata as Record<string, string>).canto_user_id === user.userId,
    )!;
    const sub = stripeHas(null, customer.id as string);
    await send('customer.subscription.created', sub);
    expect(await api.subscribed(user)).toBe(true);
    // A second subscription of the same customer: found by the stored row.
    const next = stripeHas(null, customer.id as string, { id: `sub_second_${kind}` });
    await send('customer.subscription.created', next);
    expect(await subscriptionRows(ctx, user.userId)).toHaveLength(2);

    // Someone else's customer, unknown to Canto: the event is kept as seen, nothing granted.
    const before = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from subscriptions`,
    );
    const stray = stripeHas(null, 'cus_not_canto', { id: `sub_stray_${kind}` });
    await send('customer.subscription.created', stray, {}, `evt_stray_${kind}`);
    expect(await rows(ctx, sql`select count(*)::int as n from subscriptions`)).toEqual(before);
    expect(
      await rows(ctx, sql`select type from payment_events where event_id = ${`evt_stray_${kind}`}`),
    ).toEqual([{ type: 'customer.subscription.created' }]);
  });

  it('refuses bad, stale and re-serialized signatures with 400 and writes nothing', async () => {
    const user = await makeListener(ctx, 'Forged');
    const sub = stripeHas(user, 'cus_forged');
    const object = eventObject('customer.subscription.created', sub);
    const now = ctx.clock.now();
    const good = signedEvent('customer.subscription.created', object, now);
    const before = await paymentState(ctx);
    const fetched = retrieves(sub.id as string);

    const cases: Array<[string, { payload: string; signature?: string }, string?]> = [
      ['no signature', { payload: good.payload }],
      ['empty signature', { payload: good.payload, signature: '' }],
      ['garbage signature', { payload: good.payload, signature: 't=1,v1=abc' }],
      [
        'signed with another secret',
        signedEvent('customer.subscription.created', object, now, { secret: 'whsec_other' }),
      ],
      // 301 s old at the server's clock (the tolerance is 300 s).
      [
        'stale',
        signedEvent('customer.subscription.created', object, new Date(now.getTime() - 301_000)),
      ],
      [
        're-serialized body',
        { payload: JSON.stringify(JSON.parse(good.payload)), signature: good.signature },
      ],
      [
        'another body under a valid signature',
        {
          payload: good.payload.replace(user.userId, '00000000-0000-4000-8000-000000000000'),
          signature: good.signature,
        },
      ],
      [
        'as text/plain, re-serialized',
        { payload: JSON.stringify(JSON.parse(good.payload)), signature: good.signature },
        'text/plain',
      ],
    ];
    for (const [name, delivery, type] of cases) {
      const res = await deliver(delivery, type);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error, name).toEqual({
        code: 'validation_failed',
        message: premiumMessages.webhookSignature,
      });
    }
    // Correctly signed, but not JSON: refused too.
    const bytes = 'not json at all';
    const res = await deliver({
      payload: bytes,
      signature: Stripe.webhooks.generateTestHeaderString({
        payload: bytes,
        secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
        timestamp: Math.floor(now.getTime() / 1000),
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(premiumMessages.webhookBody);

    expect(await paymentState(ctx)).toEqual(before);
    expect(retrieves(sub.id as string)).toBe(fetched);
    expect(await api.subscribed(user)).toBe(false);

    // The same bytes, as Stripe sent them (any content type), 300 s old: accepted.
    const onTime = signedEvent(
      'customer.subscription.created',
      object,
      new Date(now.getTime() - 300_000),
    );
    expect((await deliver(onTime, 'application/json; charset=utf-8')).statusCode).toBe(200);
    expect(await api.subscribed(user)).toBe(true);
  });

  it('acknowledges event types it does not handle without writing; a failed fetch is retried by redelivery', async () => {
    const user = await makeListener(ctx, 'Retried');
    const sub = stripeHas(user, 'cus_retried');
    const before = await paymentState(ctx);
    await send('customer.created', { id: 'cus_retried', object: 'customer' });
    expect(await paymentState(ctx)).toEqual(before);

    // Stripe's API fails while the event is applied: 500, nothing recorded, so Stripe
    // delivers it again and then it applies.
    const event = signedEvent(
      'customer.subscription.created',
      eventObject('customer.subscription.created', sub),
      ctx.clock.now(),
    );
    fake.failing.add(`GET /v1/subscriptions/${sub.id as string}`);
    const failed = await deliver(event);
    expect(failed.statusCode).toBe(500);
    expect(await paymentState(ctx)).toEqual(before);
    fake.failing.clear();
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await api.subscribed(user)).toBe(true);
  });

  it("ignores a client's claim to premium; the local test-mode endpoints are off", async () => {
    const user = await makeListener(ctx, 'Claimant');
    const before = await paymentState(ctx);
    for (const [method, url, payload] of [
      ['POST', '/api/premium/checkout', { subscribed: true, status: 'active' }],
      ['POST', '/api/premium/local/checkout/confirm', { session: 'x.1.y' }],
      ['POST', '/api/premium/local/cancel', { subscribed: true }],
      ['POST', '/api/premium/local/resume', undefined],
      ['GET', '/api/premium/local/checkout?session=x', undefined],
    ] as const) {
      const res = await api.call(method, url, user, payload);
      if (url === '/api/premium/checkout') expect(res.statusCode).toBe(200);
      else {
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error.message).toBe(premiumMessages.localOff);
      }
    }
    // An unsigned "webhook" naming the user as paid.
    const sub = stripeHas(user, 'cus_claim');
    const claim = signedEvent(
      'checkout.session.completed',
      eventObject('checkout.session.completed', sub),
      ctx.clock.now(),
    );
    expect((await deliver({ payload: claim.payload })).statusCode).toBe(400);
    expect(await paymentState(ctx)).toEqual(before);
    expect(await api.subscribed(user)).toBe(false);
  });

  it('a payment service failure at checkout is a logged 500 that writes nothing', async () => {
    const user = await makeListener(ctx, 'Stripe Down');
    const before = await paymentState(ctx);
    fake.failing.add('POST /v1/checkout/sessions');
    try {
      const res = await api.call('POST', '/api/premium/checkout', user);
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('internal_error');
    } finally {
      fake.failing.clear();
    }
    expect(await paymentState(ctx)).toEqual(before);
  });
});
