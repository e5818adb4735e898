// Withdrawals (docs/decisions/0029): balances from artist_revenue, requests that reserve their
// amount, admin decisions that happen once, payment details sealed and shown masked, and
// Idempotency-Key retries. Every refusal is a 4xx that writes nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { withdrawalMessages } from '../../src/core/validation/revenue.rules.ts';
import { createSecretBox } from '../../src/server/security/secret-box.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';
import { makeAdmin, seedRevenue, withdrawalsApi, withdrawalState } from './withdrawals-helpers.ts';

const paypal = { payment_method: 'paypal', payment_details: { paypal_email: 'jane@example.com' } };
const bank = {
  payment_method: 'bank',
  payment_details: {
    bank_name: 'First Bank',
    bank_account: '000123456789',
    bank_routing: '021000021',
  },
};

describe.each(dbKinds)('withdrawals on %s', (kind) => {
  const ctx = useTestApp(kind);
  const api = withdrawalsApi(ctx);
  let artist: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Money Artist');
    admin = await makeAdmin(ctx);
  });

  /** A fresh artist with `cents` of revenue. */
  async function artistWith(cents: number, name = 'Earning Artist') {
    const a = await makeUser(ctx, 'artist', name);
    if (cents > 0) await seedRevenue(ctx, a.userId, cents);
    return a;
  }

  it('a new artist has nothing; revenue makes the balance; routes are for artists only', async () => {
    expect(await api.balance(artist)).toEqual({
      balance: 0,
      available: 0,
      pending: 0,
      payout: null,
    });
    await seedRevenue(ctx, artist.userId, 3000, '2026-09');
    await seedRevenue(ctx, artist.userId, 2000, '2026-10');
    expect(await api.balance(artist)).toMatchObject({ balance: 5000, available: 5000, pending: 0 });

    const listener = await makeUser(ctx, 'listener');
    const pending = await makeUser(ctx, 'pending_artist');
    const before = await withdrawalState(ctx);
    for (const user of [listener, pending]) {
      for (const [method, url] of [
        ['GET', '/api/artist/balance'],
        ['GET', '/api/artist/withdrawals'],
        ['POST', '/api/artist/withdrawals'],
      ] as const) {
        const res = await api.call(
          method,
          url,
          user,
          method === 'POST' ? { amount: 20, ...paypal } : undefined,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect((await api.call('GET', '/api/artist/balance', null)).statusCode).toBe(401);
    expect(await withdrawalState(ctx)).toEqual(before);
  });

  it('a request reserves its amount, is listed newest first, and its details are sealed and masked', async () => {
    const a = await artistWith(5000);
    const res = await api.request(a, { amount: 20, ...paypal });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({
      amount_cents: 2000,
      status: 'pending',
      payment_method: 'paypal',
      payment_details_masked: 'PayPal j•••@example.com',
      processed_at: null,
      notes: null,
    });
    expect(await api.balance(a)).toEqual({
      balance: 5000,
      available: 3000,
      pending: 2000,
      payout: { payment_method: 'paypal', payment_details_masked: 'PayPal j•••@example.com' },
    });

    ctx.clock.advance(1000);
    const second = await api.request(a, { amount: 10.5, ...bank });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({
      amount_cents: 1050,
      payment_details_masked: 'Bank ••••6789',
    });

    const list = await api.call('GET', '/api/artist/withdrawals', a);
    expect(list.statusCode).toBe(200);
    const items = list.json().items as { id: string }[];
    expect(items.map((i) => i.id)).toEqual([second.json().id, made.id]);
    // Never the details themselves, anywhere they are shown.
    for (const body of [
      list.body,
      res.body,
      (await api.call('GET', '/api/admin/withdrawals', admin)).body,
    ]) {
      expect(body).not.toContain('jane@example.com');
      expect(body).not.toContain('000123456789');
      expect(body).not.toContain('021000021');
    }

    const [stored] = await rows<{ enc: string; masked: string }>(
      ctx,
      sql`select payment_details_encrypted as enc, payment_details_masked as masked
          from artist_withdrawals where id = ${second.json().id}`,
    );
    expect(stored!.enc).not.toContain('000123456789');
    const box = createSecretBox(ctx.env.secretKey!, 'withdrawal-payment-details');
    expect(JSON.parse(box.open(stored!.enc))).toEqual(bank.payment_details);
    const [account] = await rows<{ enc: string }>(
      ctx,
      sql`select payment_details_encrypted as enc from artist_accounts where artist_id = ${a.userId}`,
    );
    expect(account!.enc).not.toContain('000123456789');
  });

  it('refuses bad amounts with a 4xx and writes nothing', async () => {
    const a = await artistWith(5000);
    await api.request(a, { amount: 20, ...paypal });
    const before = await withdrawalState(ctx);
    const bodies: [unknown, number, string?][] = [
      [{ amount: 9.99, ...paypal }, 400, withdrawalMessages.minimum],
      [{ amount: 0, ...paypal }, 400, withdrawalMessages.minimum],
      [{ amount: -10, ...paypal }, 400, withdrawalMessages.minimum],
      [{ amount: '10', ...paypal }, 400],
      [{ amount: 10.001, ...paypal }, 400],
      [{ amount: 1e300, ...paypal }, 400],
      [{ amount: null, ...paypal }, 400],
      [{ ...paypal }, 400],
      [{ amount: 30.01, ...paypal }, 422, 'Insufficient balance: $30.00 is available'],
      [{ amount: 1000, ...paypal }, 422, 'Insufficient balance: $30.00 is available'],
    ];
    for (const [body, status, message] of bodies) {
      const res = await api.request(a, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(res.json().error.message).toBe(message);
      if (status === 422) {
        expect(res.json().error.code).toBe('insufficient_balance');
      }
    }
    // Not JSON numbers at all: NaN, and 1e309 (Infinity once parsed).
    for (const raw of [
      '{"amount": NaN, "payment_method": "stripe"}',
      '{"amount": 1e309, "payment_method": "stripe"}',
      '{"amount": -1e309, "payment_method": "stripe"}',
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/artist/withdrawals',
        headers: { ...a.headers, 'content-type': 'application/json' },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
    }
    expect(await withdrawalState(ctx)).toEqual(before);
    expect(await api.balance(a)).toMatchObject({ balance: 5000, available: 3000, pending: 2000 });
    // Exactly what is available is fine.
    expect((await api.request(a, { amount: 30, payment_method: 'stripe' })).statusCode).toBe(201);
    expect(await api.balance(a)).toMatchObject({ available: 0, pending: 5000 });
  });

  it('checks each method’s details (spec §5) and refuses markup, long values and foreign fields', async () => {
    const a = await artistWith(100_000);
    const other = await artistWith(100_000, 'Other Artist');
    const before = await withdrawalState(ctx);
    const cases: [unknown, string?][] = [
      [{ amount: 20, payment_method: 'paypal' }, withdrawalMessages.paypalEmail],
      [
        { amount: 20, payment_method: 'paypal', payment_details: { paypal_email: '  ' } },
        withdrawalMessages.paypalEmail,
      ],
      [
        { amount: 20, payment_method: 'paypal', payment_details: { paypal_email: 'not-an-email' } },
        withdrawalMessages.paypalEmail,
      ],
      [
        { amount: 20, payment_method: 'bank', payment_details: { bank_account: '12345678' } },
        withdrawalMessages.bankDetails,
      ],
      [
        { amount: 20, payment_method: 'bank', payment_details: { bank_routing: '021000021' } },
        withdrawalMessages.bankDetails,
      ],
      [{ amount: 20, payment_method: 'bank' }, withdrawalMessages.bankDetails],
      [
        {
          amount: 20,
          payment_method: 'paypal',
          payment_details: { paypal_email: '<script>x</script>@example.com' },
        },
      ],
      [
        {
          amount: 20,
          ...bank,
          payment_details: { ...bank.payment_details, bank_name: '<b>Bank</b>' },
        },
      ],
      [
        {
          amount: 20,
          ...bank,
          payment_details: { ...bank.payment_details, bank_account: '1234<img src=x>' },
        },
      ],
      [
        {
          amount: 20,
          payment_method: 'paypal',
          payment_details: { paypal_email: `${'a'.repeat(10_240)}@example.com` },
        },
      ],
      [
        {
          amount: 20,
          ...bank,
          payment_details: { ...bank.payment_details, bank_name: 'B'.repeat(10_240) },
        },
      ],
      [
        {
          amount: 20,
          ...bank,
          payment_details: { ...bank.payment_details, bank_routing: '9'.repeat(10_240) },
        },
      ],
      [{ amount: 20, payment_method: 'venmo', payment_details: {} }],
      [{ amount: 20, ...paypal, artist_id: other.userId }],
      [{ amount: 20, ...paypal, status: 'completed' }],
      [
        {
          amount: 20,
          payment_method: 'paypal',
          payment_details: { paypal_email: 'j@example.com', extra: 'x' },
        },
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.request(a, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      if (message) expect(res.json().error.message).toBe(message);
    }
    expect(await withdrawalState(ctx)).toEqual(before);
    expect(await api.balance(other)).toMatchObject({ available: 100_000, pending: 0 });
    // The stripe method has no detail check.
    const stripe = await api.request(a, { amount: 25, payment_method: 'stripe' });
    expect(stripe.statusCode, stripe.body).toBe(201);
    expect(stripe.json().payment_details_masked).toBe('Stripe');
  });

  it('an Idempotency-Key retry answers the first request; the key with another body is 422', async () => {
    const a = await artistWith(10_000);
    const key = { 'idempotency-key': 'submit-1f3a' };
    const first = await api.request(a, { amount: 20, ...paypal }, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await api.request(a, { amount: 20, ...paypal }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await api.balance(a)).toMatchObject({ available: 8000, pending: 2000 });

    const before = await withdrawalState(ctx);
    const reused = await api.request(a, { amount: 30, ...paypal }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    const otherMethod = await api.request(a, { amount: 20, ...bank }, key);
    expect(otherMethod.statusCode).toBe(422);
    for (const bad of ['', 'x'.repeat(256), 'with space']) {
      const res = await api.request(a, { amount: 20, ...paypal }, { 'idempotency-key': bad });
      expect(res.statusCode, bad).toBe(400);
    }
    expect(await withdrawalState(ctx)).toEqual(before);
    // Keys are the artist's own: another artist's same key is a new request.
    const b = await artistWith(10_000);
    const theirs = await api.request(b, { amount: 20, ...paypal }, key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(first.json().id);
    // A new key is a new request.
    const next = await api.request(a, { amount: 20, ...paypal }, { 'idempotency-key': 'submit-2' });
    expect(next.json().id).not.toBe(first.json().id);
    expect(await api.balance(a)).toMatchObject({ available: 6000, pending: 4000 });
  });

  it('approve completes once: processed_at, processed_by and notes set, balance drops, the artist is notified', async () => {
    const a = await artistWith(5000, 'Paid Artist');
    const made = (await api.request(a, { amount: 20, ...paypal })).json();

    const all = await api.call('GET', '/api/admin/withdrawals', admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().items.find((w: { id: string }) => w.id === made.id)).toMatchObject({
      artist_id: a.userId,
      artist_name: 'Paid Artist',
      amount_cents: 2000,
      payment_method: 'paypal',
      payment_details_masked: 'PayPal j•••@example.com',
      status: 'pending',
      processed_at: null,
      processed_by: null,
    });

    const res = await api.approve(admin, made.id, 'Paid via PayPal, ref 42');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: made.id,
      status: 'completed',
      processed_by: admin.userId,
      notes: 'Paid via PayPal, ref 42',
    });
    expect(res.json().processed_at).toBe(ctx.clock.now().toISOString());
    expect(await api.balance(a)).toMatchObject({ balance: 3000, available: 3000, pending: 0 });

    const notes = await rows<{ type: string; message: string }>(
      ctx,
      sql`select type, message from notifications where user_id = ${a.userId}`,
    );
    expect(notes).toEqual([
      {
        type: 'withdrawal_completed',
        message: 'Your withdrawal of $20.00 has been paid. Note: Paid via PayPal, ref 42',
      },
    ]);

    // Once: completed → anything is refused, and nothing changes.
    const before = await withdrawalState(ctx);
    for (const again of [api.approve(admin, made.id), api.reject(admin, made.id, 'undo')]) {
      const r = await again;
      expect(r.statusCode).toBe(409);
      expect(r.json().error.code).toBe('withdrawal_not_pending');
    }
    expect(await withdrawalState(ctx)).toEqual(before);
  });

  it('reject frees the amount once; rejected → approved is refused', async () => {
    const a = await artistWith(5000);
    const made = (await api.request(a, { amount: 40, ...bank })).json();
    expect(await api.balance(a)).toMatchObject({ available: 1000 });
    const res = await api.reject(admin, made.id, 'Account number does not match');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'rejected',
      notes: 'Account number does not match',
    });
    expect(res.json().processed_at).not.toBeNull();
    expect(await api.balance(a)).toMatchObject({ balance: 5000, available: 5000, pending: 0 });
    const [note] = await rows<{ type: string }>(
      ctx,
      sql`select type from notifications where user_id = ${a.userId}`,
    );
    expect(note).toEqual({ type: 'withdrawal_rejected' });
    const before = await withdrawalState(ctx);
    expect((await api.approve(admin, made.id)).statusCode).toBe(409);
    expect((await api.reject(admin, made.id)).statusCode).toBe(409);
    expect(await withdrawalState(ctx)).toEqual(before);
    // Without notes.
    const plain = (await api.request(a, { amount: 10, payment_method: 'stripe' })).json();
    const r = await api.call('POST', `/api/admin/withdrawals/${plain.id}/reject`, admin);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().notes).toBeNull();
  });

  it('refuses non-admins, an admin deciding their own request, unknown ids and a balance gone under the lock', async () => {
    const a = await artistWith(5000);
    const made = (await api.request(a, { amount: 20, ...paypal })).json();
    const before = await withdrawalState(ctx);
    const listener = await makeUser(ctx, 'listener');
    for (const user of [a, listener]) {
      expect((await api.approve(user, made.id)).statusCode).toBe(403);
      expect((await api.reject(user, made.id)).statusCode).toBe(403);
      expect((await api.call('GET', '/api/admin/withdrawals', user)).statusCode).toBe(403);
    }
    // An admin who is also an artist may not decide their own request.
    await ctx.db.database.db.execute(
      sql`insert into user_roles (user_id, role) values (${a.userId}, 'admin')`,
    );
    const own = await api.approve(a, made.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('permission_denied');
    expect((await api.reject(a, made.id)).statusCode).toBe(403);
    expect((await api.approve(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await api.approve(admin, 'not-a-uuid')).statusCode).toBe(400);
    expect((await api.approve(admin, made.id, 'x'.repeat(1001))).statusCode).toBe(400);
    expect(await withdrawalState(ctx)).toEqual(before);

    // The month was recalculated lower since the request: approval re-checks and refuses.
    await ctx.db.database.db.execute(
      sql`update artist_revenue set premium_revenue_cents = 1500, total_revenue_cents = 1500 where artist_id = ${a.userId}`,
    );
    const late = await api.approve(admin, made.id);
    expect(late.statusCode).toBe(422);
    expect(late.json().error.code).toBe('insufficient_balance');
    expect(await withdrawalState(ctx)).toEqual(before);
    expect((await api.reject(admin, made.id)).statusCode).toBe(200);
  });

  it('an artist with a verified MFA factor must be at aal2', async () => {
    const a = await artistWith(5000);
    await ctx.db.database.db.execute(
      sql`insert into mfa_factors (user_id, factor_type, status, secret_encrypted)
          values (${a.userId}, 'totp', 'verified', 'v1.x.y.z')`,
    );
    const before = await withdrawalState(ctx);
    for (const res of [
      await api.request(a, { amount: 20, ...paypal }),
      await api.call('GET', '/api/artist/balance', a),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('insufficient_aal');
    }
    expect(await withdrawalState(ctx)).toEqual(before);
  });
});
