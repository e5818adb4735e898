import { z } from 'zod';
import {
  MAX_TIP_CENTS,
  MIN_TIP_CENTS,
  TIP_MESSAGE_MAX,
  tipMessages,
} from '../core/validation/tip.rules.ts';

/*
 * Tips (docs/decisions/0029): a signed-in listener tips an artist $1–$100 through the payment
 * provider. Money is integer cents. A tip is paid only by the local test-mode confirm
 * (PAYMENTS=local) or by Stripe's verified webhook (PAYMENTS=stripe), never by what a client
 * says.
 */

/** POST /api/tips. */
export const createTipBody = z.object({
  artist_id: z.uuid(),
  amount_cents: z
    .number({ error: tipMessages.amountRange })
    .int(tipMessages.amountRange)
    .min(MIN_TIP_CENTS, tipMessages.amountRange)
    .max(MAX_TIP_CENTS, tipMessages.amountRange)
    .describe('whole cents, 100 ($1) to 10000 ($100)'),
  message: z.string().trim().max(TIP_MESSAGE_MAX).optional(),
});
export type CreateTipBody = z.infer<typeof createTipBody>;

/** Where to pay: Stripe Checkout (absolute URL) or the local test-mode page (a path). */
export const tipCheckout = z.object({ tip_id: z.uuid(), url: z.string() });
export type TipCheckout = z.infer<typeof tipCheckout>;

export const tipParams = z.object({ id: z.uuid() });

/** A tip as its own listener sees it (the checkout page). */
export const tipDto = z.object({
  id: z.uuid(),
  artist_id: z.uuid(),
  artist_name: z.string().nullable(),
  amount_cents: z.number().int(),
  provider: z.enum(['local', 'stripe']),
  status: z.enum(['pending', 'paid', 'failed']),
  created_at: z.string().describe('ISO timestamp'),
  paid_at: z.string().nullable().describe('ISO timestamp; null until paid'),
});
export type TipDto = z.infer<typeof tipDto>;
