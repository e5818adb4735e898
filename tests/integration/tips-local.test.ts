// Tips (docs/decisions/0029) with PAYMENTS=local: a listener tips an artist $1–$100 through
// Canto's test-mode checkout page; Confirm pays the tip once (fee fixed, paid_at set), however
// often it arrives; bad amounts, non-artists, oneself and others' tips are refused, writing nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { tipMessages } from '../../src/core/validation/tip.rules.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser } from './songs-helpers.ts';
import {
  expectRefused,
  moneyState,
  paidNet,
  tipRevenueOf,
  tipRows,
  tipsApi,
  type TipUser,
} from './tips-helpers.ts';

describe.each(dbKinds)('tips with local test-mode payments on %s', (kind) => {
  const ctx = useTestApp(kind);
  const call = tipsApi(ctx);
  let listener: TipUser;
  let artist: TipUser;
  let other: TipUser;
  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Tipper');
    artist = await makeUser(ctx, 'artist', 'Tipped Artist');
    other = await makeUser(ctx, 'listener', 'Someone Else');
  });

  const open = async (amount: number, message?: string) => {
    const res = await call('POST', '/api/tips', listener, {
      artist_id: artist.userId,
      amount_cents: amount,
      ...(message === undefined ? {} : { message }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ tip_id: string; url: string }>();
    expect(body.url).toBe(`/tips/checkout?tip=${body.tip_id}`);
    return body.tip_id;
  };

  it('opening a checkout writes a pending tip; confirm pays it once with the 5 % fee', async () => {
    expect(await tipRevenueOf(ctx, artist)).toBe(0);
    const tipId = await open(1050, 'Thanks for the album');
    let [tip] = await tipRows(ctx, artist.userId);
    expect(tip).toMatchObject({
      id: tipId,
      listener_id: listener.userId,
      amount_cents: '1050',
      fee_cents: '0',
      provider: 'local',
      status: 'pending',
      message: 'Thanks for the album',
      paid_at: null,
    });

    const view = await call('GET', `/api/tips/${tipId}`, listener);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      artist_name: 'Tipped Artist',
      amount_cents: 1050,
      status: 'pending',
    });

    const first = await call('POST', `/api/tips/${tipId}/confirm`, listener);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'paid', paid_at: ctx.clock.now().toISOString() });
    [tip] = await tipRows(ctx, artist.userId);
    // 5 % of 1050 is 52.5: half up to 53.
    expect(tip).toMatchObject({ status: 'paid', fee_cents: '53' });
    expect(new Date(tip!.paid_at!).toISOString()).toBe(ctx.clock.now().toISOString());
    // Credited to the artist's month in the same transaction: 1050 − 53.
    expect(await tipRevenueOf(ctx, artist)).toBe(997);

    // A second confirm (a double click, a retry) changes nothing: not even paid_at.
    const before = await moneyState(ctx);
    ctx.clock.advance(60_000);
    const again = await call('POST', `/api/tips/${tipId}/confirm`, listener);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().paid_at).toBe(first.json().paid_at);
    expect(await moneyState(ctx)).toEqual(before);
    expect(await tipRevenueOf(ctx, artist)).toBe(997);
  });

  it('concurrent confirms of one tip pay it once', async () => {
    const credited = await tipRevenueOf(ctx, artist);
    const tipId = await open(100);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', `/api/tips/${tipId}/confirm`, listener)),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const paid = new Set(answers.map((a) => a.json().paid_at));
    expect(paid.size).toBe(1);
    const tip = (await tipRows(ctx, artist.userId)).find((t) => t.id === tipId)!;
    expect(tip).toMatchObject({ status: 'paid', fee_cents: '5' });
    expect(await tipRevenueOf(ctx, artist)).toBe(credited + 95);
    expect(await tipRevenueOf(ctx, artist)).toBe(await paidNet(ctx, artist.userId));
  });

  it('$1 and $100 are accepted; anything else is refused and writes nothing', async () => {
    await open(100);
    await open(10_000);
    const before = await moneyState(ctx);
    for (const amount_cents of [99, 10_001, 0, -100, 150.5, '500', null, true]) {
      const res = await call('POST', '/api/tips', listener, {
        artist_id: artist.userId,
        amount_cents,
      });
      await expectRefused(res, 400, 'validation_failed', tipMessages.amountRange);
    }
    // NaN and Infinity have no JSON form (a raw body with them is not JSON); 1e309 parses to Infinity.
    for (const raw of ['NaN', 'Infinity', '1e309']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/tips',
        headers: { ...listener.headers, 'content-type': 'application/json' },
        payload: `{"artist_id":"${artist.userId}","amount_cents":${raw}}`,
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    const missing = await call('POST', '/api/tips', listener, { artist_id: artist.userId });
    expect(missing.statusCode).toBe(400);
    const long = await call('POST', '/api/tips', listener, {
      artist_id: artist.userId,
      amount_cents: 500,
      message: 'x'.repeat(281),
    });
    expect(long.statusCode).toBe(400);
    expect(await moneyState(ctx)).toEqual(before);
  });

  it('tipping a non-artist, a pending artist, nobody or oneself is refused and writes nothing', async () => {
    const pending = await makeUser(ctx, 'pending_artist', 'Pending');
    const before = await moneyState(ctx);
    for (const target of [other.userId, pending.userId, '00000000-0000-4000-8000-000000000000'])
      await expectRefused(
        await call('POST', '/api/tips', listener, { artist_id: target, amount_cents: 500 }),
        404,
        'not_found',
        tipMessages.notArtist,
      );
    await expectRefused(
      await call('POST', '/api/tips', artist, { artist_id: artist.userId, amount_cents: 500 }),
      400,
      'validation_failed',
      tipMessages.ownTip,
    );
    await expectRefused(
      await call('POST', '/api/tips', listener, { artist_id: 'not-a-uuid', amount_cents: 500 }),
      400,
      'validation_failed',
    );
    const anonymous = await call('POST', '/api/tips', null, {
      artist_id: artist.userId,
      amount_cents: 500,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await moneyState(ctx)).toEqual(before);
  });

  it("only the tipper sees or confirms a tip; Stripe's webhook is off", async () => {
    const tipId = await open(700);
    const before = await moneyState(ctx);
    await expectRefused(await call('GET', `/api/tips/${tipId}`, other), 404, 'not_found');
    await expectRefused(await call('POST', `/api/tips/${tipId}/confirm`, other), 404, 'not_found');
    await expectRefused(await call('POST', `/api/tips/${tipId}/confirm`, artist), 404, 'not_found');
    const webhook = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(webhook.statusCode).toBe(404);
    expect(await moneyState(ctx)).toEqual(before);
    const tip = (await tipRows(ctx, artist.userId)).find((t) => t.id === tipId)!;
    expect(tip.status).toBe('pending');
  });
});
