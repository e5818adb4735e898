import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { createSecretBox } from '../../security/secret-box.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import { withdrawalsRoutes } from './withdrawals.routes.ts';
import { createWithdrawalsRepository } from './withdrawals.repository.ts';
import {
  createWithdrawalsService,
  type WithdrawalPayouts,
  type WithdrawalsService,
} from './withdrawals.service.ts';

export type { WithdrawalPayouts } from './withdrawals.service.ts';

/** What other modules may ask of withdrawals (a provider payout's webhook, the revenue screen). */
export type WithdrawalsModule = FeatureModule & {
  balance: WithdrawalsService['balance'];
  mine: WithdrawalsService['mine'];
  /** A provider payout's result: processing → completed or rejected, once. */
  settle: WithdrawalsService['settle'];
  paymentDetailsOf: WithdrawalsService['paymentDetailsOf'];
  /** The provider's connected account the artist's payouts go to (payouts module). */
  payoutAccountOf(artistId: string): Promise<string | null>;
  setPayoutAccount(artistId: string, accountId: string): Promise<void>;
};

/**
 * Artists' balances and withdrawal requests, and the admins' decisions on them
 * (docs/decisions/0029): GET /api/artist/balance, GET and POST /api/artist/withdrawals,
 * GET /api/admin/withdrawals, POST /api/admin/withdrawals/{id}/approve and /reject.
 * `payouts`, when given, pays approved requests through a provider (pending → processing).
 */
export function createWithdrawalsModule(
  ctx: Pick<ModuleContext, 'database' | 'clock' | 'log' | 'secretKey'>,
  {
    notifications,
    payouts,
  }: {
    notifications: Pick<NotificationsModule, 'notify'>;
    payouts?: WithdrawalPayouts;
  },
): WithdrawalsModule {
  const repository = createWithdrawalsRepository(ctx.database.db);
  const withdrawals = createWithdrawalsService({
    repository,
    notifications,
    box: createSecretBox(ctx.secretKey, 'withdrawal-payment-details'),
    clock: ctx.clock,
    log: ctx.log,
    payouts,
  });
  return {
    name: 'withdrawals',
    plugin: async (app) =>
      void (await app.register(withdrawalsRoutes({ withdrawals }), { prefix: '/api' })),
    balance: withdrawals.balance,
    mine: withdrawals.mine,
    settle: withdrawals.settle,
    paymentDetailsOf: withdrawals.paymentDetailsOf,
    payoutAccountOf: async (artistId) =>
      (await repository.account(artistId))?.payoutAccountId ?? null,
    setPayoutAccount: repository.setPayoutAccount,
  };
}
