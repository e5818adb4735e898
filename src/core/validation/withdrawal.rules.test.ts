import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withdrawalMessages } from './revenue.rules.ts';
import {
  amountProblem,
  checkPaymentDetails,
  dollarsToCents,
  formatCents,
  maskPaymentDetails,
} from './withdrawal.rules.ts';

describe('withdrawal rules', () => {
  it('reads dollars with at most two decimals as exact cents', () => {
    expect(dollarsToCents(10)).toBe(1000);
    expect(dollarsToCents(0.29)).toBe(29); // 28.999999999999996 in binary
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(10.001)).toBeNull();
    expect(dollarsToCents(Number.NaN)).toBeNull();
    expect(dollarsToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(dollarsToCents(1e300)).toBeNull();
    // Every whole number of cents written as dollars comes back as itself.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (cents) => {
        expect(dollarsToCents(Number((cents / 100).toFixed(2)))).toBe(cents);
      }),
    );
  });

  it('asks for $10 at least and no more than is available', () => {
    expect(amountProblem(999)).toBe(withdrawalMessages.minimum);
    expect(amountProblem(1000)).toBeNull();
    expect(amountProblem(3001, 3000n)).toBe('Insufficient balance: $30.00 is available');
    expect(amountProblem(3000, 3000n)).toBeNull();
  });

  it('formats cents as dollars', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(123456789n)).toBe('$1,234,567.89');
    expect(formatCents(-2500)).toBe('-$25.00');
  });

  it('checks each method’s details and masks them without the whole of any number', () => {
    expect(checkPaymentDetails('paypal', {})).toMatchObject({
      ok: false,
      message: withdrawalMessages.paypalEmail,
    });
    expect(checkPaymentDetails('bank', { bank_account: '1234' })).toMatchObject({
      ok: false,
      message: withdrawalMessages.bankDetails,
    });
    expect(checkPaymentDetails('stripe', undefined)).toEqual({ ok: true, details: {} });
    expect(checkPaymentDetails('bank', { bank_account: '1<2', bank_routing: '3' })).toMatchObject({
      ok: false,
    });
    // Only the method's own fields are kept.
    expect(
      checkPaymentDetails('paypal', { paypal_email: ' a@b.co ', bank_account: '123456' }),
    ).toEqual({ ok: true, details: { paypal_email: 'a@b.co' } });

    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{6,34}$/),
        fc.stringMatching(/^[0-9]{4,20}$/),
        (account, routing) => {
          const checked = checkPaymentDetails('bank', {
            bank_account: account,
            bank_routing: routing,
          });
          expect(checked.ok).toBe(true);
          if (!checked.ok) return;
          const masked = maskPaymentDetails('bank', checked.details);
          expect(masked).toBe(`Bank ••••${account.slice(-4)}`);
          expect(masked).not.toContain(account);
        },
      ),
    );
    expect(maskPaymentDetails('paypal', { paypal_email: 'jane@example.com' })).toBe(
      'PayPal j•••@example.com',
    );
    expect(maskPaymentDetails('stripe', {})).toBe('Stripe');
  });
});
