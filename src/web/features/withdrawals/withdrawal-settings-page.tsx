// Spec §2 Withdrawal settings: the balance and what is available, a method (PayPal, bank,
// Stripe) with its details, an amount from $10 to the available amount, the processing-time
// note, and the artist's requests with their status. The server judges every rule again.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircle, Wallet } from 'lucide-react';
import { MIN_WITHDRAWAL_CENTS, withdrawalMessages } from '@/core/validation/revenue.rules.ts';
import {
  amountProblem,
  checkPaymentDetails,
  dollarsToCents,
  formatCents,
  PAYMENT_METHODS,
  paymentMethodLabels,
  type PaymentDetailsInput,
  type PaymentMethod,
} from '@/core/validation/withdrawal.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { TableHead } from '@/web/components/ui/table.tsx';
import { DateTime, RequestsBody, WithdrawalStatusBadge } from './withdrawal-parts.tsx';
import { useArtistBalance, useMyWithdrawals, useRequestWithdrawal } from './use-withdrawals.ts';
import { StripeConnect } from '@/web/features/payouts/index.ts';

function Amount({
  label,
  cents,
  testId,
}: {
  label: string;
  cents: number | undefined;
  testId: string;
}) {
  return (
    <div className="rounded-xl border p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      {cents === undefined ? (
        <Skeleton className="mt-2 h-7 w-24" />
      ) : (
        <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
          {formatCents(cents)}
        </p>
      )}
    </div>
  );
}

function Field({
  id,
  label,
  error,
  ...props
}: { id: string; label: string; error?: string | undefined } & React.ComponentProps<'input'>) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...props}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

type Errors = Partial<
  Record<'amount' | 'paypal_email' | 'bank_account' | 'bank_routing' | 'bank_name', string>
>;

function WithdrawalForm({ available }: { available: number | undefined }) {
  const id = useId();
  const [method, setMethod] = useState<PaymentMethod>('paypal');
  const [details, setDetails] = useState<Required<PaymentDetailsInput>>({
    paypal_email: '',
    bank_name: '',
    bank_account: '',
    bank_routing: '',
  });
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const submit = useRequestWithdrawal();
  // One key per distinct request: a retry of the same submit reuses it, a change makes a new one.
  const attempt = useRef<{ form: string; key: string } | null>(null);

  const setDetail = (field: keyof PaymentDetailsInput) => (value: string) =>
    setDetails((d) => ({ ...d, [field]: value }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next: Errors = {};
    const dollars = amount.trim() === '' ? Number.NaN : Number(amount);
    const cents = dollarsToCents(dollars);
    if (cents === null)
      next.amount = Number.isNaN(dollars)
        ? withdrawalMessages.minimum
        : 'Amount must be in whole cents';
    else {
      const problem = amountProblem(cents, available === undefined ? undefined : BigInt(available));
      if (problem) next.amount = problem;
    }
    const given: PaymentDetailsInput =
      method === 'paypal'
        ? { paypal_email: details.paypal_email }
        : method === 'bank'
          ? {
              bank_name: details.bank_name,
              bank_account: details.bank_account,
              bank_routing: details.bank_routing,
            }
          : {};
    const checked = checkPaymentDetails(method, given);
    if (!checked.ok) next[checked.field as keyof Errors] = checked.message;
    setErrors(next);
    if (Object.keys(next).length > 0 || cents === null) return;

    const body = {
      amount: dollars,
      payment_method: method,
      ...(method === 'stripe'
        ? {}
        : { payment_details: checked.ok ? (checked.details as PaymentDetailsInput) : {} }),
    };
    const form = JSON.stringify(body);
    if (attempt.current?.form !== form) attempt.current = { form, key: crypto.randomUUID() };
    submit.mutate(
      { body, idempotencyKey: attempt.current.key },
      {
        onSuccess: () => {
          attempt.current = null;
          setAmount('');
          setDetails({ paypal_email: '', bank_name: '', bank_account: '', bank_routing: '' });
          toast.success(withdrawalMessages.submitted);
        },
        onError: (err) =>
          toast.error(withdrawalMessages.submitFailed, { description: errorMessage(err) }),
      },
    );
  }

  const maxDollars = available === undefined ? undefined : Math.max(0, available) / 100;
  const tooLittle = available !== undefined && available < MIN_WITHDRAWAL_CENTS;

  return (
    <form className="grid gap-5" onSubmit={onSubmit} noValidate aria-label="Request a withdrawal">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-method`}>Payment method</Label>
        <NativeSelect
          id={`${id}-method`}
          value={method}
          onChange={(e) => {
            setMethod(e.target.value as PaymentMethod);
            setErrors({});
          }}
        >
          {PAYMENT_METHODS.map((m) => (
            <option key={m} value={m}>
              {paymentMethodLabels[m]}
            </option>
          ))}
        </NativeSelect>
      </div>

      {method === 'paypal' && (
        <Field
          id={`${id}-paypal`}
          label="PayPal email"
          type="email"
          autoComplete="email"
          value={details.paypal_email}
          onChange={(e) => setDetail('paypal_email')(e.target.value)}
          error={errors.paypal_email}
        />
      )}
      {method === 'bank' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Field
              id={`${id}-bank-name`}
              label="Bank name"
              value={details.bank_name}
              onChange={(e) => setDetail('bank_name')(e.target.value)}
              error={errors.bank_name}
            />
          </div>
          <Field
            id={`${id}-bank-account`}
            label="Account number"
            inputMode="numeric"
            autoComplete="off"
            value={details.bank_account}
            onChange={(e) => setDetail('bank_account')(e.target.value)}
            error={errors.bank_account}
          />
          <Field
            id={`${id}-bank-routing`}
            label="Routing number"
            inputMode="numeric"
            autoComplete="off"
            value={details.bank_routing}
            onChange={(e) => setDetail('bank_routing')(e.target.value)}
            error={errors.bank_routing}
          />
        </div>
      )}
      {method === 'stripe' && (
        <>
          <p className="text-sm text-muted-foreground">
            Stripe payouts go to the account you connect with Stripe; no details are needed here.
          </p>
          <StripeConnect />
        </>
      )}

      <Field
        id={`${id}-amount`}
        label="Amount (USD)"
        type="number"
        inputMode="decimal"
        min={MIN_WITHDRAWAL_CENTS / 100}
        max={maxDollars}
        step="0.01"
        placeholder={maxDollars === undefined ? '10.00' : `10.00 – ${maxDollars.toFixed(2)}`}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount}
      />
      <p className="text-sm text-muted-foreground">{withdrawalMessages.processingTime}</p>
      {tooLittle && <p className="text-sm text-muted-foreground">{withdrawalMessages.minimum}</p>}
      <Button
        type="submit"
        disabled={submit.isPending || available === undefined}
        className="w-fit"
      >
        {submit.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {submit.isPending ? 'Submitting...' : 'Request Withdrawal'}
      </Button>
    </form>
  );
}

export default function WithdrawalSettingsPage() {
  const balance = useArtistBalance();
  const mine = useMyWithdrawals();

  useEffect(() => {
    if (balance.isError || mine.isError) toast.error(withdrawalMessages.loadFailed);
  }, [balance.isError, mine.isError]);

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Balance</CardTitle>
          <CardDescription>
            Your revenue less paid and in-progress withdrawals; pending requests hold their amount
            until they are processed.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {balance.isError ? (
            <LoadFailed
              message={withdrawalMessages.loadFailed}
              retrying={balance.isFetching}
              onRetry={() => void balance.refetch()}
            />
          ) : (
            <div className="grid gap-3 sm:grid-cols-3">
              <Amount label="Balance" cents={balance.data?.balance} testId="balance" />
              <Amount label="Available" cents={balance.data?.available} testId="available" />
              <Amount label="Pending" cents={balance.data?.pending} testId="pending" />
            </div>
          )}
          {balance.data?.payout && (
            <p className="mt-4 text-sm text-muted-foreground">
              Last used: {paymentMethodLabels[balance.data.payout.payment_method]} (
              {balance.data.payout.payment_details_masked})
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Request a withdrawal</CardTitle>
          <CardDescription>Minimum $10, up to your available amount.</CardDescription>
        </CardHeader>
        <CardContent>
          <WithdrawalForm available={balance.data?.available} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Your withdrawals</CardTitle>
        </CardHeader>
        <CardContent className="p-0">
          <RequestsBody
            query={mine}
            loadingLabel="Loading withdrawals"
            empty={{ icon: Wallet, text: 'No withdrawal requests yet' }}
          >
            {(rows) => (
              <div className="overflow-x-auto border-t">
                <table className="w-full text-sm">
                  <caption className="sr-only">Your withdrawal requests, newest first</caption>
                  <thead className="text-left text-muted-foreground">
                    <tr>
                      <TableHead className="px-6">Requested</TableHead>
                      <TableHead>Amount</TableHead>
                      <TableHead>Method</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead className="px-6">Notes</TableHead>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {rows.map((w) => (
                      <tr key={w.id} data-testid="my-withdrawal">
                        <td className="px-6 py-3">
                          <DateTime iso={w.requested_at} />
                        </td>
                        <td className="px-3 py-3 tabular-nums">{formatCents(w.amount_cents)}</td>
                        <td className="px-3 py-3">{w.payment_details_masked}</td>
                        <td className="px-3 py-3">
                          <WithdrawalStatusBadge status={w.status} />
                        </td>
                        <td className="px-6 py-3 text-muted-foreground">{w.notes ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </RequestsBody>
        </CardContent>
      </Card>
    </div>
  );
}
