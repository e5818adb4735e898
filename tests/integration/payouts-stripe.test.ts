// Payouts through Stripe Connect (docs/decisions/0029), through the real `stripe` package against
// the local Stripe stand-in: an artist onboards a connected account (made once, kept on their
// withdrawals account row); 'Approve & Pay' on a stripe-method request transfers the amount
// there and leaves it processing until the transfer's signed webhook settles it — created:
// completed; reversed: rejected, the amount available again — once. Stripe refusing the transfer
// (no capability) or no connected account rejects at once; paypal/bank are recorded as before.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signedEvent,
  startFakeStripe,
  STRIPE_TEST_ENV,
  type FakeStripe,
} from '../helpers/fake-stripe.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';
import { makeAdmin, seedRevenue, withdrawalsApi } from './withdrawals-helpers.ts';

describe.each(dbKinds)('payouts through Stripe Connect on %s', (kind) => {
  let fake: FakeStripe;
  const env: Record<string, string> = { ...STRIPE_TEST_ENV, PUBLIC_URL: 'https://canto.example' };
  beforeAll(async () => {
    fake = await startFakeStripe();
    env.STRIPE_API_URL = fake.url;
  });
  afterAll(() => fake?.close());
  const ctx = useTestApp(kind, env);
  const api = withdrawalsApi(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await makeAdmin(ctx);
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
  const transferEvent = async (type: string, transfer: Record<string, unknown>, id?: string) => {
    const res = await deliver(signedEvent(type, transfer, ctx.clock.now(), { id }));
    expect(res.statusCode, res.body).toBe(200);
  };

  const accountOf = async (artistId: string) =>
    (
      await rows<{ payout_account_id: string | null }>(
        ctx,
        sql`select payout_account_id from artist_accounts where artist_id = ${artistId}`,
      )
    )[0]?.payout_account_id ?? null;

  /** An artist with `cents` of revenue and, if `ready`, an onboarded connected account. */
  async function artistWith(cents: number, onboard: 'ready' | 'unfinished' | 'none') {
    const artist = await makeUser(ctx, 'artist', 'Payout Artist');
    await seedRevenue(ctx, artist.userId, cents);
    if (onboard !== 'none') {
      const res = await api.call('POST', '/api/artist/payouts/stripe/onboard', artist);
      expect(res.statusCode, res.body).toBe(200);
      if (onboard === 'ready') {
        const account = fake.accounts.get((await accountOf(artist.userId))!)!;
        account.capabilities = { transfers: 'active' };
      }
    }
    return artist;
  }
  async function approvedStripeRequest(artist: TestUser, amount: number) {
    const made = await api.request(artist, { amount, payment_method: 'stripe' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ id: string }>().id;
    const approved = await api.approve(admin, id);
    expect(approved.statusCode, approved.body).toBe(200);
    return { id, answer: approved.json<{ status: string }>() };
  }
  const statusOf = async (id: string) =>
    (
      await rows<{ status: string; notes: string | null; processed_at: string | null }>(
        ctx,
        sql`select status, notes, processed_at::text from artist_withdrawals where id = ${id}`,
      )
    )[0]!;
  const transferFor = (id: string) =>
    [...fake.transfers.values()].find(
      (t) => (t.metadata as Record<string, string>).canto_withdrawal_id === id,
    );

  it('onboarding makes one connected account per artist, kept on the account row', async () => {
    const artist = await makeUser(ctx, 'artist', 'Onboarding Artist');
    const status = () => api.call('GET', '/api/artist/payouts/stripe', artist);
    expect((await status()).json()).toEqual({ enabled: true, connected: false, ready: false });

    const first = await api.call('POST', '/api/artist/payouts/stripe/onboard', artist);
    expect(first.statusCode, first.body).toBe(200);
    const accountId = await accountOf(artist.userId);
    expect(accountId).toMatch(/^acct_/);
    expect(first.json().url).toMatch(
      new RegExp(`^https://connect\\.stripe\\.test/setup/e/${accountId}/`),
    );
    const [created] = fake.sent('POST', '/v1/accounts');
    expect(created!.form).toMatchObject({
      type: 'express',
      'capabilities[transfers][requested]': 'true',
      'metadata[canto_user_id]': artist.userId,
    });
    expect(created!.idempotencyKey).toBe(`canto-account-${artist.userId}`);
    const link = fake.sent('POST', '/v1/account_links').at(-1)!;
    expect(link.form).toEqual({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: 'https://canto.example/withdrawal-settings?stripe=refresh',
      return_url: 'https://canto.example/withdrawal-settings?stripe=return',
    });

    // Again (onboarding left unfinished): the same account, a new link.
    const accounts = fake.sent('POST', '/v1/accounts').length;
    const again = await api.call('POST', '/api/artist/payouts/stripe/onboard', artist);
    expect(again.statusCode).toBe(200);
    expect(fake.sent('POST', '/v1/accounts')).toHaveLength(accounts);
    expect(await accountOf(artist.userId)).toBe(accountId);
    expect((await status()).json()).toEqual({ enabled: true, connected: true, ready: false });
    fake.accounts.get(accountId!)!.capabilities = { transfers: 'active' };
    expect((await status()).json()).toEqual({ enabled: true, connected: true, ready: true });

    // Artists only.
    const listener = await makeUser(ctx, 'listener');
    expect(
      (await api.call('POST', '/api/artist/payouts/stripe/onboard', listener)).statusCode,
    ).toBe(403);
    expect((await api.call('GET', '/api/artist/payouts/stripe', null)).statusCode).toBe(401);
  });

  it('Approve & Pay transfers to the connected account; processing until the webhook says paid, once', async () => {
    const artist = await artistWith(5000, 'ready');
    const { id, answer } = await approvedStripeRequest(artist, 20);
    expect(answer.status).toBe('processing');
    const transfer = transferFor(id)!;
    expect(transfer).toMatchObject({
      amount: 2000,
      currency: 'usd',
      destination: await accountOf(artist.userId),
      transfer_group: id,
    });
    const sent = fake.sent('POST', '/v1/transfers').find((r) => r.form.transfer_group === id)!;
    expect(sent.idempotencyKey).toBe(`canto-transfer-${id}`);
    expect(await statusOf(id)).toMatchObject({ status: 'processing', processed_at: null });
    // Processing still counts against the balance.
    expect(await api.balance(artist)).toMatchObject({ balance: 3000, available: 3000 });

    const created = signedEvent('transfer.created', transfer, ctx.clock.now());
    expect((await deliver(created)).statusCode).toBe(200);
    const done = await statusOf(id);
    expect(done.status).toBe('completed');
    expect(done.processed_at).not.toBeNull();

    // Redelivered, and a later reversal: a completed request changes no more.
    expect((await deliver(created)).statusCode).toBe(200);
    await transferEvent('transfer.reversed', { ...transfer, reversed: true });
    expect(await statusOf(id)).toEqual(done);
    expect(await api.balance(artist)).toMatchObject({ balance: 3000, available: 3000 });
  });

  it('a reversed transfer rejects the request and the amount is available again, once', async () => {
    const artist = await artistWith(5000, 'ready');
    const { id } = await approvedStripeRequest(artist, 30);
    const transfer = transferFor(id)!;
    await Promise.all([
      transferEvent('transfer.reversed', { ...transfer, reversed: true, amount_reversed: 3000 }),
      transferEvent('transfer.reversed', { ...transfer, reversed: true, amount_reversed: 3000 }),
    ]);
    expect(await statusOf(id)).toMatchObject({
      status: 'rejected',
      notes: 'The Stripe transfer was reversed',
    });
    expect(await api.balance(artist)).toMatchObject({ balance: 5000, available: 5000 });
    // A late created event does not bring it back.
    await transferEvent('transfer.created', transfer);
    expect((await statusOf(id)).status).toBe('rejected');
  });

  it('Stripe refusing the transfer, or no connected account, rejects at once', async () => {
    const unfinished = await artistWith(5000, 'unfinished');
    const refused = await approvedStripeRequest(unfinished, 25);
    expect(transferFor(refused.id)).toBeUndefined();
    const r = await statusOf(refused.id);
    expect(r.status).toBe('rejected');
    expect(r.notes).toMatch(/^Stripe refused the transfer: .*transfers capability/);
    expect(await api.balance(unfinished)).toMatchObject({ available: 5000 });

    const none = await artistWith(5000, 'none');
    const missing = await approvedStripeRequest(none, 25);
    expect(await statusOf(missing.id)).toMatchObject({
      status: 'rejected',
      notes: 'No Stripe account is connected for payouts',
    });
  });

  it('paypal and bank requests are recorded on Approve, with no transfer', async () => {
    const artist = await artistWith(5000, 'ready');
    const made = await api.request(artist, {
      amount: 15,
      payment_method: 'paypal',
      payment_details: { paypal_email: 'jane@example.com' },
    });
    const id = made.json<{ id: string }>().id;
    const before = fake.sent('POST', '/v1/transfers').length;
    const approved = await api.approve(admin, id);
    expect(approved.json().status).toBe('completed');
    expect(fake.sent('POST', '/v1/transfers')).toHaveLength(before);
  });

  it('an unsigned or forged transfer event changes nothing', async () => {
    const artist = await artistWith(5000, 'ready');
    const { id } = await approvedStripeRequest(artist, 10);
    const transfer = transferFor(id)!;
    const good = signedEvent('transfer.created', transfer, ctx.clock.now());
    expect((await deliver({ payload: good.payload })).statusCode).toBe(400);
    const forged = signedEvent('transfer.created', transfer, ctx.clock.now(), {
      secret: 'whsec_forged',
    });
    expect((await deliver(forged)).statusCode).toBe(400);
    expect((await statusOf(id)).status).toBe('processing');
  });
});

describe.each(dbKinds)('payouts with local test-mode payments on %s', (kind) => {
  const ctx = useTestApp(kind);
  const api = withdrawalsApi(ctx);

  it('Stripe onboarding is off and a stripe request is recorded on Approve', async () => {
    const artist = await makeUser(ctx, 'artist', 'Local Artist');
    const admin = await makeAdmin(ctx);
    expect((await api.call('GET', '/api/artist/payouts/stripe', artist)).json()).toEqual({
      enabled: false,
      connected: false,
      ready: false,
    });
    expect((await api.call('POST', '/api/artist/payouts/stripe/onboard', artist)).statusCode).toBe(
      404,
    );
    await seedRevenue(ctx, artist.userId, 5000);
    const made = await api.request(artist, { amount: 20, payment_method: 'stripe' });
    const approved = await api.approve(admin, made.json<{ id: string }>().id);
    expect(approved.json().status).toBe('completed');
  });
});
