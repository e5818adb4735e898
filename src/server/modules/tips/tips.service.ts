import crypto from 'node:crypto';
import type { CreateTipBody, TipCheckout, TipDto } from '../../../contracts/tips.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { monthOf, platformFeeCents } from '../../../core/validation/revenue.rules.ts';
import { tipMessages } from '../../../core/validation/tip.rules.ts';
import type { Db } from '../../db/client.ts';
import type { Log } from '../../log.ts';
import type { PaymentEvent, PaymentProvider } from '../../providers/payments/payment-provider.ts';
import type { TipRow, TipsRepository } from './tips.repository.ts';

/** The revenue module's part in a paid tip: the artist's month, recounted in `tx`. */
export type TipRevenue = {
  refreshTipRevenue(tx: Db, artistId: string, month: string): Promise<void>;
};

export type TipsService = ReturnType<typeof createTipsService>;

/** The key on Stripe's session and payment intent that names the tip. */
export const TIP_METADATA_KEY = 'canto_tip_id';

/**
 * Tips (docs/decisions/0029): a listener tips an artist through the payment provider. A tip
 * is written pending when its checkout opens and becomes paid only through the local confirm
 * (PAYMENTS=local) or Stripe's verified `checkout.session.completed` (PAYMENTS=stripe), once:
 * the fee is fixed and the artist's month recounted in the same transaction.
 */
export function createTipsService({
  tips,
  payments,
  isArtist,
  artistName,
  revenue,
  clock,
  log,
}: {
  tips: TipsRepository;
  payments: PaymentProvider;
  isArtist: (userId: string) => Promise<boolean>;
  artistName: (userId: string) => Promise<string | null>;
  revenue: TipRevenue;
  clock: Clock;
  log: Log;
}) {
  const credit = async (tx: Db, tip: TipRow) =>
    revenue.refreshTipRevenue(tx, tip.artistId, monthOf(tip.paidAt!));

  function dto(tip: TipRow & { artistName: string | null }): TipDto {
    return {
      id: tip.id,
      artist_id: tip.artistId,
      artist_name: tip.artistName,
      amount_cents: Number(tip.amountCents),
      provider: tip.provider,
      status: tip.status,
      created_at: tip.createdAt.toISOString(),
      paid_at: tip.paidAt ? tip.paidAt.toISOString() : null,
    };
  }

  async function own(listenerId: string, id: string) {
    const tip = await tips.findOwn(id, listenerId);
    if (!tip) throw new AppError(ErrorCode.notFound, tipMessages.notFound);
    return tip;
  }

  /** Pays a pending tip once; `already` and the rest change nothing. */
  async function pay(provider: TipRow['provider'], ref: string, expectCents?: bigint) {
    const result = await tips.markPaid(
      provider,
      ref,
      { now: clock.now(), feeCents: platformFeeCents, expectCents },
      credit,
    );
    if (typeof result !== 'string')
      log.info({ tip: result.id, amount: String(result.amountCents) }, 'tips: tip paid');
    return result;
  }

  return {
    /** Opens a checkout for a tip to an artist (not oneself); writes the pending tip. */
    async create(listenerId: string, body: CreateTipBody): Promise<TipCheckout> {
      if (body.artist_id === listenerId)
        throw new AppError(ErrorCode.validation, tipMessages.ownTip);
      if (!(await isArtist(body.artist_id)))
        throw new AppError(ErrorCode.notFound, tipMessages.notArtist);
      const id = crypto.randomUUID();
      const base = {
        id,
        listenerId,
        artistId: body.artist_id,
        amountCents: BigInt(body.amount_cents),
        message: body.message ? body.message : null,
        now: clock.now(),
      };
      if (payments.kind === 'local') {
        await tips.insertPending({ ...base, provider: 'local', providerRef: `tip:${id}` });
        return { tip_id: id, url: `/tips/checkout?tip=${id}` };
      }
      const name = (await artistName(body.artist_id)) ?? 'an artist';
      let session: { id: string; url: string };
      try {
        session = await payments.createPaymentCheckout({
          reference: id,
          amountCents: body.amount_cents,
          description: `Tip for ${name} on Canto`,
          metadata: { [TIP_METADATA_KEY]: id },
          successPath: `/profile/${body.artist_id}?tip=success`,
          cancelPath: `/profile/${body.artist_id}?tip=canceled`,
          idempotencyKey: `canto-tip-${id}`,
        });
      } catch (e) {
        log.error({ err: e }, 'stripe: tip checkout session failed');
        throw new AppError(ErrorCode.internal, 'The payment service could not be reached');
      }
      await tips.insertPending({ ...base, provider: 'stripe', providerRef: session.id });
      return { tip_id: id, url: session.url };
    },

    async get(listenerId: string, id: string): Promise<TipDto> {
      return dto(await own(listenerId, id));
    },

    /** PAYMENTS=local: the tipper confirms on the test-mode page; a second confirm is a no-op. */
    async confirmLocal(listenerId: string, id: string): Promise<TipDto> {
      if (payments.kind !== 'local') throw new AppError(ErrorCode.notFound, tipMessages.localOff);
      const tip = await own(listenerId, id);
      if (tip.status === 'failed') throw new AppError(ErrorCode.conflict, tipMessages.notPending);
      await pay('local', tip.providerRef!);
      return dto(await own(listenerId, id));
    },

    /** Stripe's events about a tip's one-time checkout (routed here by premium's endpoint). */
    stripeEvents: {
      name: 'tips',
      claims: (event: PaymentEvent) =>
        event.object.object === 'checkout.session' &&
        event.object.mode === 'payment' &&
        typeof (event.object.metadata as Record<string, unknown> | undefined)?.[
          TIP_METADATA_KEY
        ] === 'string',
      async apply(event: PaymentEvent) {
        const session = event.object;
        const ref = String(session.id);
        if (
          event.type === 'checkout.session.completed' ||
          event.type === 'checkout.session.async_payment_succeeded'
        ) {
          // A delayed method (a bank debit) completes unpaid; its success event pays it.
          if (session.payment_status !== 'paid') return;
          if (session.currency !== 'usd' || typeof session.amount_total !== 'number') {
            log.warn({ session: ref }, 'tips: a paid session in another currency or amount');
            return;
          }
          const result = await pay('stripe', ref, BigInt(session.amount_total));
          if (result === 'mismatch' || result === 'not-found')
            log.warn({ session: ref, result }, 'tips: a paid session that pays no tip');
          return;
        }
        if (
          event.type === 'checkout.session.expired' ||
          event.type === 'checkout.session.async_payment_failed'
        )
          await tips.markFailed('stripe', ref);
      },
    },
  };
}
