import Stripe from 'stripe';
import type { StripePayoutAccount } from '../../../contracts/payouts.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Log } from '../../log.ts';
import type {
  PaymentEvent,
  PaymentProvider,
  StripePayments,
} from '../../providers/payments/payment-provider.ts';
import type { WithdrawalPayouts, WithdrawalsModule } from '../withdrawals/withdrawals.module.ts';

export type PayoutsService = ReturnType<typeof createPayoutsService>;

/** The key on a transfer's metadata that names the withdrawal it pays. */
export const WITHDRAWAL_METADATA_KEY = 'canto_withdrawal_id';
/** Where Stripe's onboarding sends the artist back. */
const SETTINGS_PATH = '/withdrawal-settings';

const notes = {
  noAccount: 'No Stripe account is connected for payouts',
  refused: (message: string) => `Stripe refused the transfer: ${message}`.slice(0, 1000),
  reversed: 'The Stripe transfer was reversed',
};

/**
 * Payouts through Stripe Connect (docs/decisions/0029). The withdrawals module decides and
 * keeps the request (pending → processing under the artist's lock); this sends its transfer
 * and brings the transfer's webhook back through `withdrawals.settle` (processing →
 * completed or rejected, once). The connected account is kept on the withdrawals module's
 * per-artist account row.
 */
export function createPayoutsService({
  payments,
  withdrawals,
  log,
}: {
  payments: PaymentProvider;
  withdrawals: () => Pick<WithdrawalsModule, 'settle' | 'payoutAccountOf' | 'setPayoutAccount'>;
  log: Log;
}) {
  const stripe = (): StripePayments => {
    if (payments.kind !== 'stripe')
      throw new AppError(ErrorCode.notFound, 'Stripe payouts are not enabled on this server');
    return payments;
  };

  async function atStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      log.error({ err: e }, `stripe: ${what} failed`);
      throw new AppError(ErrorCode.internal, 'The payment service could not be reached');
    }
  }

  const withdrawalPayouts: WithdrawalPayouts = {
    handles: (row) => payments.kind === 'stripe' && row.paymentMethod === 'stripe',
    async send(row) {
      const api = stripe();
      const accountId = await withdrawals().payoutAccountOf(row.artistId);
      if (!accountId) {
        await withdrawals().settle(row.id, 'failed', notes.noAccount);
        return;
      }
      try {
        const transfer = await api.createTransfer({
          accountId,
          amountCents: Number(row.amountCents),
          reference: row.id,
          metadata: { [WITHDRAWAL_METADATA_KEY]: row.id },
        });
        log.info({ withdrawal: row.id, transfer }, 'payouts: transfer created');
      } catch (e) {
        // Stripe said no (no capability, no funds): final. Anything else may have gone
        // through; the request stays processing until the transfer's webhook says.
        if (e instanceof Stripe.errors.StripeInvalidRequestError) {
          log.warn({ withdrawal: row.id, err: e.message }, 'payouts: transfer refused');
          await withdrawals().settle(row.id, 'failed', notes.refused(e.message));
          return;
        }
        throw e;
      }
    },
  };

  return {
    withdrawalPayouts,

    async account(artistId: string): Promise<StripePayoutAccount> {
      if (payments.kind !== 'stripe') return { enabled: false, connected: false, ready: false };
      const accountId = await withdrawals().payoutAccountOf(artistId);
      if (!accountId) return { enabled: true, connected: false, ready: false };
      const ready = await atStripe('account retrieve', () =>
        payments.connectedAccountReady(accountId),
      );
      return { enabled: true, connected: true, ready };
    },

    /** The onboarding link of the artist's connected account, made (once) if none yet. */
    async onboard(artistId: string): Promise<{ url: string }> {
      const api = stripe();
      let accountId = await withdrawals().payoutAccountOf(artistId);
      if (!accountId) {
        accountId = await atStripe('account create', () => api.createConnectedAccount(artistId));
        await withdrawals().setPayoutAccount(artistId, accountId);
      }
      const id = accountId;
      return atStripe('account link', () => api.createAccountLink(id, SETTINGS_PATH));
    },

    /** Transfers' events, routed here by premium's one Stripe endpoint. */
    stripeEvents: {
      name: 'payouts',
      claims: (event: PaymentEvent) =>
        event.object.object === 'transfer' &&
        typeof (event.object.metadata as Record<string, unknown> | undefined)?.[
          WITHDRAWAL_METADATA_KEY
        ] === 'string',
      async apply(event: PaymentEvent) {
        const transfer = event.object;
        const withdrawalId = (transfer.metadata as Record<string, string>)[
          WITHDRAWAL_METADATA_KEY
        ]!;
        // A transfer to a connected account has arrived when Stripe reports it created
        // (`paid` on API versions that had it); a reversal or failure undoes the payout.
        const reversed =
          event.type === 'transfer.reversed' ||
          event.type === 'transfer.failed' ||
          transfer.reversed === true;
        const paid = event.type === 'transfer.created' || event.type === 'transfer.paid';
        if (!reversed && !paid) return;
        const settled = await withdrawals().settle(
          withdrawalId,
          reversed ? 'failed' : 'paid',
          reversed ? notes.reversed : undefined,
        );
        log.info({ withdrawalId, type: event.type, settled }, 'payouts: transfer event');
      },
    },
  };
}
