// Tips (docs/decisions/0029) with PAYMENTS=stripe, through the real `stripe` package against the
// local Stripe stand-in: a tip opens a one-time Checkout Session (mode payment, the amount as
// price_data, the tip on client_reference_id and metadata); only the signed
// `checkout.session.completed` through premium's one webhook endpoint pays it, once however
// often it is delivered; an unsigned, stale or replayed event, an unpaid or altered session
// writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completedSession,
  signedEvent,
  startFakeStripe,
  STRIPE_TEST_ENV,
  type FakeStripe,
} from '../helpers/fake-stripe.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser } from './songs-helpers.ts';
import {
  moneyState,
  paidNet,
  tipRevenueOf,
  tipRows,
  tipsApi,
  type TipUser,
} from './tips-helpers.ts';

describe.each(dbKinds)('tips with Stripe payments on %s', (kind) => {
  let fake: FakeStripe;
  const env: Record<string, string> = { ...STRIPE_TEST_ENV, PUBLIC_URL: 'https://canto.example' };
  beforeAll(async () => {
    fake = await startFakeStripe();
    env.STRIPE_API_URL = fake.url;
  });
  afterAll(() => fake?.close());
  const ctx = useTestApp(kind, env);
  const call = tipsApi(ctx);

  let listener: TipUser;
  let artist: TipUser;
  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Stripe Tipper');
    artist = await makeUser(ctx, 'artist', 'Stripe Artist');
  });

  const deliver = (delivery: { payload: string; signature?: string }) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        ...(delivery.signature === undefined ? {} : { 'stripe-signature': delivery.signature }),
      },
      payload: delivery.payload,
    });

  /** A tip's checkout opened through the API; the session Stripe made for it. */
  const open = async (amount: number) => {
    const res = await call('POST', '/api/tips', listener, {
      artist_id: artist.userId,
      amount_cents: amount,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { tip_id, url } = res.json<{ tip_id: string; url: string }>();
    const id = /cs_test_\w+$/.exec(url)![0];
    return { tipId: tip_id, session: fake.sessions.get(id)! };
  };
  const tipOf = async (tipId: string) =>
    (await tipRows(ctx, artist.userId)).find((t) => t.id === tipId)!;

  it('opens a one-time Checkout Session for the amount, naming the tip', async () => {
    const { tipId, session } = await open(2500);
    const [sent] = fake.sent('POST', '/v1/checkout/sessions');
    expect(sent!.form).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Tip for Stripe Artist on Canto',
      'line_items[0][quantity]': '1',
      client_reference_id: tipId,
      'metadata[canto_tip_id]': tipId,
      'payment_intent_data[metadata][canto_tip_id]': tipId,
      success_url: `https://canto.example/profile/${artist.userId}?tip=success`,
      cancel_url: `https://canto.example/profile/${artist.userId}?tip=canceled`,
    });
    expect(sent!.idempotencyKey).toBe(`canto-tip-${tipId}`);
    expect(await tipOf(tipId)).toMatchObject({
      provider: 'stripe',
      provider_ref: session.id,
      status: 'pending',
      fee_cents: '0',
    });
  });

  it('the signed completed event pays the tip once, however often it arrives', async () => {
    const { tipId, session } = await open(1990);
    const event = signedEvent(
      'checkout.session.completed',
      completedSession(session),
      ctx.clock.now(),
    );
    const first = await deliver(event);
    expect(first.statusCode, first.body).toBe(200);
    const paid = await tipOf(tipId);
    // 5 % of 1990 is 99.5: half up to 100.
    expect(paid).toMatchObject({ status: 'paid', fee_cents: '100' });
    expect(new Date(paid.paid_at!).toISOString()).toBe(ctx.clock.now().toISOString());
    expect(await tipRevenueOf(ctx, artist)).toBe(1890);

    const before = await moneyState(ctx);
    ctx.clock.advance(1000);
    // The same event again, and a second event (another id) about the same session, at once.
    const again = await Promise.all([
      deliver(event),
      deliver(
        signedEvent('checkout.session.completed', completedSession(session), ctx.clock.now()),
      ),
      deliver(
        signedEvent(
          'checkout.session.async_payment_succeeded',
          completedSession(session),
          ctx.clock.now(),
        ),
      ),
    ]);
    for (const r of again) expect(r.statusCode, r.body).toBe(200);
    const after = await moneyState(ctx);
    expect(after.tips).toBe(before.tips);
    expect(after.revenue).toBe(before.revenue);
    expect(await tipOf(tipId)).toEqual(paid);
    expect(await tipRevenueOf(ctx, artist)).toBe(1890);
  });

  it('refuses unsigned, wrongly signed and stale events, writing nothing', async () => {
    const { tipId, session } = await open(500);
    const before = await moneyState(ctx);
    const good = signedEvent(
      'checkout.session.completed',
      completedSession(session),
      ctx.clock.now(),
    );
    const stale = signedEvent(
      'checkout.session.completed',
      completedSession(session),
      new Date(ctx.clock.now().getTime() - 600_000),
    );
    const forged = signedEvent(
      'checkout.session.completed',
      completedSession(session),
      ctx.clock.now(),
      {
        secret: 'whsec_someone_else',
      },
    );
    for (const delivery of [
      { payload: good.payload },
      { payload: good.payload, signature: 'garbage' },
      forged,
      stale,
      // The signed bytes altered: a bigger amount cannot ride on a real signature.
      {
        payload: good.payload.replace('"amount_total": 500', '"amount_total": 50'),
        signature: good.signature,
      },
    ]) {
      const res = await deliver(delivery);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect(await moneyState(ctx)).toEqual(before);
    expect((await tipOf(tipId)).status).toBe('pending');
  });

  it('an unpaid completion, another amount or an unknown session pays nothing; expiry fails the tip', async () => {
    const { tipId, session } = await open(800);
    const unpaid = await deliver(
      signedEvent(
        'checkout.session.completed',
        completedSession(session, { payment_status: 'unpaid' }),
        ctx.clock.now(),
      ),
    );
    expect(unpaid.statusCode).toBe(200);
    const altered = await deliver(
      signedEvent(
        'checkout.session.completed',
        completedSession(session, { amount_total: 80 }),
        ctx.clock.now(),
      ),
    );
    expect(altered.statusCode).toBe(200);
    const unknown = await deliver(
      signedEvent(
        'checkout.session.completed',
        completedSession(session, { id: 'cs_test_unknown' }),
        ctx.clock.now(),
      ),
    );
    expect(unknown.statusCode).toBe(200);
    expect(await tipOf(tipId)).toMatchObject({ status: 'pending', fee_cents: '0', paid_at: null });

    // The delayed payment then succeeds: paid.
    const later = await deliver(
      signedEvent(
        'checkout.session.async_payment_succeeded',
        completedSession(session),
        ctx.clock.now(),
      ),
    );
    expect(later.statusCode).toBe(200);
    expect(await tipOf(tipId)).toMatchObject({ status: 'paid', fee_cents: '40' });
    expect(await tipRevenueOf(ctx, artist)).toBe(await paidNet(ctx, artist.userId));

    // An expired checkout fails its tip; an expiry after payment changes nothing.
    const second = await open(300);
    await deliver(
      signedEvent(
        'checkout.session.expired',
        completedSession(second.session, { status: 'expired', payment_status: 'unpaid' }),
        ctx.clock.now(),
      ),
    );
    expect((await tipOf(second.tipId)).status).toBe('failed');
    await deliver(
      signedEvent(
        'checkout.session.expired',
        completedSession(session, { status: 'expired' }),
        ctx.clock.now(),
      ),
    );
    expect((await tipOf(tipId)).status).toBe('paid');
  });

  it('the local confirm is off; a Stripe failure answers 500 and writes nothing', async () => {
    const { tipId } = await open(600);
    const confirm = await call('POST', `/api/tips/${tipId}/confirm`, listener);
    expect(confirm.statusCode).toBe(404);
    const before = await moneyState(ctx);
    fake.failing.add('POST /v1/checkout/sessions');
    try {
      const res = await call('POST', '/api/tips', listener, {
        artist_id: artist.userId,
        amount_cents: 600,
      });
      expect(res.statusCode).toBe(500);
    } finally {
      fake.failing.delete('POST /v1/checkout/sessions');
    }
    expect(await moneyState(ctx)).toEqual(before);
  });
});
