import { z } from 'zod';
import { withdrawalMessages } from '../core/validation/revenue.rules.ts';
import { textLine } from '../core/validation/text.rules.ts';
import {
  checkPaymentDetails,
  dollarsToCents,
  MAX_WITHDRAWAL_DOLLARS,
  PAYMENT_METHODS,
  WITHDRAWAL_STATUSES,
  withdrawalLimits,
  withdrawalRuleMessages,
} from '../core/validation/withdrawal.rules.ts';

/*
 * Withdrawals (docs/decisions/0029; spec §2 Withdrawal settings and Admin withdrawals, §3
 * artist_withdrawals, §5). Money out is integer cents (`*_cents`, `balance`, `available`,
 * `pending`); a request's amount comes in as dollars, a JSON number with at most two
 * decimals, the way the form shows it. Bodies are strict: an artist_id or status in the
 * body is a 400 and nothing is written (the server uses the session's artist).
 */

export const paymentMethod = z.enum(PAYMENT_METHODS);
export const withdrawalStatus = z.enum(WITHDRAWAL_STATUSES);

const detail = (max: number) =>
  textLine().refine((v) => v.length <= max, {
    message: withdrawalRuleMessages.tooLong,
    abort: true,
  });

export const paymentDetailsInput = z.strictObject({
  paypal_email: detail(withdrawalLimits.email).optional(),
  bank_name: detail(withdrawalLimits.bankName).optional(),
  bank_account: detail(withdrawalLimits.bankAccount).optional(),
  bank_routing: detail(withdrawalLimits.bankRouting).optional(),
});

/** POST /api/artist/withdrawals; an `Idempotency-Key` header makes a retry safe. */
export const createWithdrawalBody = z
  .strictObject({
    amount: z
      .number({ error: withdrawalRuleMessages.amountNumber })
      .refine((d) => dollarsToCents(d) !== null, {
        message: withdrawalRuleMessages.amountCents,
        abort: true,
      })
      .refine((d) => d >= 10, { message: withdrawalMessages.minimum, abort: true })
      .refine((d) => d <= MAX_WITHDRAWAL_DOLLARS, {
        message: withdrawalRuleMessages.amountTooLarge,
      }),
    payment_method: paymentMethod,
    payment_details: paymentDetailsInput.optional(),
  })
  .superRefine((body, issues) => {
    const checked = checkPaymentDetails(body.payment_method, body.payment_details);
    if (!checked.ok)
      issues.addIssue({
        code: 'custom',
        path: ['payment_details', checked.field],
        message: checked.message,
      });
  });
export type CreateWithdrawalBody = z.input<typeof createWithdrawalBody>;

export const withdrawalDto = z.object({
  id: z.uuid(),
  amount_cents: z.number().int(),
  status: withdrawalStatus,
  payment_method: paymentMethod,
  /** e.g. 'PayPal j•••@example.com', 'Bank ••••6789', 'Stripe': never the details themselves. */
  payment_details_masked: z.string(),
  requested_at: z.string(),
  processed_at: z.string().nullable(),
  notes: z.string().nullable(),
});
export type WithdrawalDto = z.infer<typeof withdrawalDto>;
export const withdrawalList = z.object({ items: z.array(withdrawalDto) });

/** GET /api/artist/balance, in cents: balance = revenue − completed − processing; available = balance − pending. */
export const artistBalance = z.object({
  balance: z.number().int(),
  available: z.number().int(),
  pending: z.number().int(),
  /** The method and masked details last entered, to start the form with. */
  payout: z
    .object({ payment_method: paymentMethod, payment_details_masked: z.string() })
    .nullable(),
});
export type ArtistBalance = z.infer<typeof artistBalance>;

export const adminWithdrawalDto = withdrawalDto.extend({
  artist_id: z.uuid(),
  artist_name: z.string().nullable(),
  processed_by: z.uuid().nullable(),
});
export type AdminWithdrawalDto = z.infer<typeof adminWithdrawalDto>;
export const adminWithdrawalList = z.object({ items: z.array(adminWithdrawalDto) });

export const withdrawalIdParams = z.object({ id: z.uuid() });
/** Approve or reject: optional notes the artist sees. */
export const decideWithdrawalBody = z
  .strictObject({
    notes: textLine()
      .max(withdrawalLimits.notes)
      .transform((v) => v || undefined)
      .optional(),
  })
  // No body at all (a bare POST) is the same as no notes.
  .nullish();
