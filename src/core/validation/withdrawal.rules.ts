// Withdrawals (spec §5, §9; docs/decisions/0029): the amount's form, each method's payment
// details and their masked form. Shared by the withdrawal settings screen and the server; pure.
import { MIN_WITHDRAWAL_CENTS, withdrawalMessages } from './revenue.rules.ts';

export const PAYMENT_METHODS = ['paypal', 'bank', 'stripe'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const WITHDRAWAL_STATUSES = ['pending', 'processing', 'completed', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** The largest request the form takes, in dollars: far above any balance, far below 2^53 cents. */
export const MAX_WITHDRAWAL_DOLLARS = 1_000_000_000;

export const withdrawalLimits = {
  email: 254,
  bankName: 100,
  bankAccount: 34,
  bankRouting: 20,
  notes: 1000,
  idempotencyKey: 255,
} as const;

export const withdrawalRuleMessages = {
  amountNumber: 'Amount must be a number of dollars',
  amountCents: 'Amount must be in whole cents',
  amountTooLarge: 'Amount is too large',
  markup: 'Payment details must not contain < or >',
  bankFormat: 'Bank account and routing numbers may hold only letters, digits, spaces and dashes',
  tooLong: 'Payment details are too long',
  insufficient: (availableCents: bigint | number) =>
    `Insufficient balance: ${formatCents(availableCents)} is available`,
  notPending: 'This withdrawal request has already been processed',
  ownRequest: 'You cannot process your own withdrawal request',
  notFound: 'Withdrawal request not found',
  keyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  keyReused: 'This Idempotency-Key was already used for a different withdrawal request',
} as const;

/** '$1,234.56' from integer cents. */
export function formatCents(cents: bigint | number): string {
  const c = BigInt(cents);
  const sign = c < 0n ? '-' : '';
  const abs = c < 0n ? -c : c;
  const dollars = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * Dollars (a JSON number with at most two decimals) as integer cents, or null when it has more
 * decimals or is not a finite number. 10.1 is 1010; 10.001 is refused (not rounded away).
 */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars)) return null;
  const cents = Math.round(dollars * 100);
  // cents / 100 is the double nearest that many cents, which is what parsing the decimal gave.
  if (!Number.isSafeInteger(cents) || cents / 100 !== dollars) return null;
  return cents;
}

/** Why an amount in cents cannot be requested, or null when it can (available in cents). */
export function amountProblem(cents: number, availableCents?: bigint): string | null {
  if (cents < MIN_WITHDRAWAL_CENTS) return withdrawalMessages.minimum;
  if (availableCents !== undefined && BigInt(cents) > availableCents)
    return withdrawalRuleMessages.insufficient(availableCents);
  return null;
}

export type PaymentDetailsInput = {
  paypal_email?: string | undefined;
  bank_name?: string | undefined;
  bank_account?: string | undefined;
  bank_routing?: string | undefined;
};

/** The details a method keeps (others are dropped), trimmed. */
export type PaymentDetails =
  | { paypal_email: string }
  | { bank_name: string | null; bank_account: string; bank_routing: string }
  | Record<string, never>;

const EMAIL = /^[^\s@<>]+@[^\s@<>.]+(\.[^\s@<>.]+)+$/;
const BANK_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;

/**
 * Spec §5's checks of a method's details: PayPal needs an email, bank needs account and
 * routing numbers, stripe none. No value may carry markup or be longer than its limit.
 */
export function checkPaymentDetails(
  method: PaymentMethod,
  input: PaymentDetailsInput | undefined,
): { ok: true; details: PaymentDetails } | { ok: false; field: string; message: string } {
  const given = input ?? {};
  for (const [field, value] of Object.entries(given)) {
    if (typeof value !== 'string') continue;
    if (/[<>]/.test(value)) return { ok: false, field, message: withdrawalRuleMessages.markup };
  }
  const trim = (v: string | undefined) => (v ?? '').trim();
  if (method === 'paypal') {
    const email = trim(given.paypal_email);
    if (email.length > withdrawalLimits.email)
      return { ok: false, field: 'paypal_email', message: withdrawalRuleMessages.tooLong };
    if (!EMAIL.test(email))
      return { ok: false, field: 'paypal_email', message: withdrawalMessages.paypalEmail };
    return { ok: true, details: { paypal_email: email } };
  }
  if (method === 'bank') {
    const account = trim(given.bank_account);
    const routing = trim(given.bank_routing);
    const name = trim(given.bank_name);
    if (!account || !routing)
      return {
        ok: false,
        field: account ? 'bank_routing' : 'bank_account',
        message: withdrawalMessages.bankDetails,
      };
    if (
      account.length > withdrawalLimits.bankAccount ||
      routing.length > withdrawalLimits.bankRouting ||
      name.length > withdrawalLimits.bankName
    )
      return { ok: false, field: 'bank_account', message: withdrawalRuleMessages.tooLong };
    if (!BANK_NUMBER.test(account) || !BANK_NUMBER.test(routing))
      return { ok: false, field: 'bank_account', message: withdrawalRuleMessages.bankFormat };
    return {
      ok: true,
      details: { bank_name: name || null, bank_account: account, bank_routing: routing },
    };
  }
  return { ok: true, details: {} };
}

/** What screens show of a method's details after entry: never the whole of any number. */
export function maskPaymentDetails(method: PaymentMethod, details: PaymentDetails): string {
  if (method === 'paypal' && 'paypal_email' in details) {
    const [local = '', domain = ''] = details.paypal_email.split('@');
    return `PayPal ${local.slice(0, 1)}•••@${domain}`;
  }
  if (method === 'bank' && 'bank_account' in details) {
    const digits = details.bank_account.replace(/[\s-]/g, '');
    const tail = digits.length > 4 ? digits.slice(-4) : '';
    return `Bank ••••${tail}`;
  }
  return 'Stripe';
}

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  paypal: 'PayPal',
  bank: 'Bank transfer',
  stripe: 'Stripe',
};

export type WithdrawalNotice = { title: string; message: string; link: string | null };

/** What the artist's notifications say when a request is decided. */
export const withdrawalNotices = {
  completed: (amountCents: bigint | number, notes: string | null): WithdrawalNotice => ({
    title: 'Withdrawal completed',
    message: `Your withdrawal of ${formatCents(amountCents)} has been paid.${notes ? ` Note: ${notes}` : ''}`,
    link: '/withdrawal-settings',
  }),
  rejected: (amountCents: bigint | number, notes: string | null): WithdrawalNotice => ({
    title: 'Withdrawal rejected',
    message: `Your withdrawal request of ${formatCents(amountCents)} was rejected; the amount is available again.${notes ? ` Note: ${notes}` : ''}`,
    link: '/withdrawal-settings',
  }),
} as const;
