// The payout seam of the withdrawals service (docs/decisions/0029): with a provider that
// handles a request, Approve & Pay moves it to processing (still counted against the balance),
// the payout is sent after the commit, and settle() brings the provider's answer once:
// paid → completed, failed → rejected with the amount available again.
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.ts';
import { createSecretBox } from '../../src/server/security/secret-box.ts';
import { createWithdrawalsRepository } from '../../src/server/modules/withdrawals/withdrawals.repository.ts';
import {
  createWithdrawalsService,
  type WithdrawalsService,
} from '../../src/server/modules/withdrawals/withdrawals.service.ts';
import type { WithdrawalRow } from '../../src/server/modules/withdrawals/withdrawals.repository.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, type TestUser } from './songs-helpers.ts';
import { makeAdmin, seedRevenue } from './withdrawals-helpers.ts';

describe.each(dbKinds)('withdrawal payouts through a provider on %s', (kind) => {
  const ctx = useTestApp(kind);
  let service: WithdrawalsService;
  let admin: TestUser;
  const sent: WithdrawalRow[] = [];
  const notices: { userId: string; type: string }[] = [];
  const errors: unknown[] = [];
  let failSend = false;

  beforeAll(async () => {
    admin = await makeAdmin(ctx);
    const quiet = () => {};
    service = createWithdrawalsService({
      repository: createWithdrawalsRepository(ctx.db.database.db),
      notifications: { notify: async (n) => void notices.push({ userId: n.userId, type: n.type }) },
      box: createSecretBox(ctx.env.secretKey!, 'withdrawal-payment-details'),
      clock: ctx.clock,
      log: {
        debug: quiet,
        info: quiet,
        warn: quiet,
        error: (...args: unknown[]) => void errors.push(args),
      },
      payouts: {
        handles: (w) => w.paymentMethod === 'stripe',
        send: async (w) => {
          sent.push(w);
          if (failSend) throw new Error('provider down');
        },
      },
    });
  });

  const balanceOf = async (artistId: string) => {
    const { payout: _payout, ...cents } = await service.balance(artistId);
    return cents;
  };
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof AppError ? e.code : String(e)),
    );

  it('approve hands a stripe request to the provider; failed brings the amount back, once', async () => {
    const artist = await makeUser(ctx, 'artist');
    await seedRevenue(ctx, artist.userId, 5000);
    const made = (
      await service.request(artist.userId, { amount: 20, payment_method: 'stripe' }, undefined)
    ).body;

    const approved = await service.approve(made.id, admin.userId, 'via Stripe');
    expect(approved).toMatchObject({
      status: 'processing',
      processed_at: null,
      processed_by: admin.userId,
    });
    expect(sent.map((w) => w.id)).toContain(made.id);
    // Processing counts against the balance.
    expect(await balanceOf(artist.userId)).toEqual({ balance: 3000, available: 3000, pending: 0 });
    expect(notices.filter((n) => n.userId === artist.userId)).toEqual([]);
    // Admins no longer decide it: the provider does.
    expect(await code(service.approve(made.id, admin.userId))).toBe('withdrawal_not_pending');
    expect(await code(service.reject(made.id, admin.userId))).toBe('withdrawal_not_pending');

    expect(await service.settle(made.id, 'failed', 'Transfer failed')).toBe(true);
    expect(await balanceOf(artist.userId)).toEqual({ balance: 5000, available: 5000, pending: 0 });
    const [row] = await service.mine(artist.userId);
    expect(row).toMatchObject({ status: 'rejected', notes: 'Transfer failed' });
    expect(row!.processed_at).not.toBeNull();
    expect(notices.filter((n) => n.userId === artist.userId)).toEqual([
      { userId: artist.userId, type: 'withdrawal_rejected' },
    ]);
    // A repeated or late webhook changes nothing.
    expect(await service.settle(made.id, 'paid')).toBe(false);
    expect(await service.settle(made.id, 'failed')).toBe(false);
    expect(await balanceOf(artist.userId)).toEqual({ balance: 5000, available: 5000, pending: 0 });
  });

  it('paid completes it; a request the provider does not handle completes on approval', async () => {
    const artist = await makeUser(ctx, 'artist');
    await seedRevenue(ctx, artist.userId, 5000);
    const viaStripe = (
      await service.request(artist.userId, { amount: 20, payment_method: 'stripe' }, undefined)
    ).body;
    await service.approve(viaStripe.id, admin.userId);
    expect(await service.settle(viaStripe.id, 'paid')).toBe(true);
    expect((await service.mine(artist.userId))[0]).toMatchObject({ status: 'completed' });
    expect(await balanceOf(artist.userId)).toEqual({ balance: 3000, available: 3000, pending: 0 });

    const viaPaypal = (
      await service.request(
        artist.userId,
        {
          amount: 10,
          payment_method: 'paypal',
          payment_details: { paypal_email: 'a@example.com' },
        },
        undefined,
      )
    ).body;
    const sentBefore = sent.length;
    expect(await service.approve(viaPaypal.id, admin.userId)).toMatchObject({
      status: 'completed',
    });
    expect(sent.length).toBe(sentBefore);
    // settle() only moves processing requests.
    expect(await service.settle(viaPaypal.id, 'failed')).toBe(false);
    expect(await balanceOf(artist.userId)).toEqual({ balance: 2000, available: 2000, pending: 0 });
  });

  it('a payout that cannot be sent leaves the approval standing (processing) and is logged', async () => {
    const artist = await makeUser(ctx, 'artist');
    await seedRevenue(ctx, artist.userId, 5000);
    const made = (
      await service.request(artist.userId, { amount: 15, payment_method: 'stripe' }, undefined)
    ).body;
    failSend = true;
    try {
      expect(await service.approve(made.id, admin.userId)).toMatchObject({ status: 'processing' });
    } finally {
      failSend = false;
    }
    expect(errors.length).toBeGreaterThan(0);
    expect(await balanceOf(artist.userId)).toMatchObject({ balance: 3500, pending: 0 });
  });
});
