// Spec §2 Artist revenue: the artist's months newest first (premium, ad, tip, total, streams)
// with a CSV statement per month and per year, the balance and what is available, and the
// withdrawal history newest first with status badges. Artists only: the route guard sends
// others to / with 'Artist access only', and the server refuses them anyway.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Download, Wallet } from 'lucide-react';
import type { RevenueMonth } from '@/contracts/revenue.contract.ts';
import type { ArtistBalance, WithdrawalDto } from '@/contracts/withdrawals.contract.ts';
import { revenueMessages, withdrawalMessages } from '@/core/validation/revenue.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Card } from '@/web/components/ui/card.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { TableHead } from '@/web/components/ui/table.tsx';
import {
  formatCents,
  formatCount,
  formatDate,
  monthName,
  statusLabel,
  statusTone,
  yearsOf,
} from './revenue-format.ts';
import {
  statementUrl,
  useArtistBalance,
  useMyWithdrawals,
  useRevenueMonths,
} from './use-artist-revenue.ts';

/** A part of the screen: loading, failed (with its message and a retry) or its data. */
export type Part<T> =
  | { status: 'loading' }
  | { status: 'failed'; retrying: boolean; onRetry: () => void }
  | { status: 'ready'; data: T };

function Section({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <section aria-labelledby={id} className="p-5">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id={id} className="text-lg font-semibold">
            {title}
          </h2>
          {action}
        </div>
        {children}
      </section>
    </Card>
  );
}

function Rows({ label, count = 4 }: { label: string; count?: number }) {
  return (
    <div aria-busy="true" className="space-y-3">
      <p role="status" className="sr-only">
        {label}
      </p>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  );
}

function Failed({
  part,
  message,
}: {
  part: Extract<Part<unknown>, { status: 'failed' }>;
  message: string;
}) {
  return <LoadFailed message={message} retrying={part.retrying} onRetry={part.onRetry} />;
}

function BalanceFigures({ balance }: { balance: ArtistBalance }) {
  const figures: [string, number][] = [
    ['Balance', balance.balance],
    ['Available', balance.available],
    ['Pending', balance.pending],
  ];
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {figures.map(([label, cents]) => (
        <div key={label} className="rounded-lg border p-4">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="text-2xl font-bold tabular-nums">{formatCents(cents)}</dd>
        </div>
      ))}
    </dl>
  );
}

const money = 'px-3 py-2 text-right tabular-nums';

function MonthsTable({ months }: { months: RevenueMonth[] }) {
  if (months.length === 0)
    return (
      <p className="py-4 text-sm text-muted-foreground">
        No revenue yet. Months appear here once they are calculated.
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-sm">
        <caption className="sr-only">Revenue by month, newest first, in US dollars</caption>
        <thead className="text-left text-muted-foreground">
          <tr className="border-b">
            <TableHead>Month</TableHead>
            <TableHead className={money}>Premium</TableHead>
            <TableHead className={money}>Ad</TableHead>
            <TableHead className={money}>Tip</TableHead>
            <TableHead className={money}>Total</TableHead>
            <TableHead className={money}>Streams</TableHead>
            <TableHead>
              <span className="sr-only">Statement</span>
            </TableHead>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month} className="border-b border-border/60 last:border-0">
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {monthName(m.month)}
              </th>
              <td className={money}>{formatCents(m.premium_revenue)}</td>
              <td className={money}>{formatCents(m.ad_revenue)}</td>
              <td className={money}>{formatCents(m.tip_revenue)}</td>
              <td className={cn(money, 'font-semibold')}>{formatCents(m.total_revenue)}</td>
              <td className={money}>{formatCount(m.total_streams)}</td>
              <td className="px-3 py-2 text-right">
                <a
                  href={statementUrl({ month: m.month })}
                  download
                  className="inline-flex items-center gap-1 text-primary-foreground underline-offset-4 hover:underline"
                >
                  <Download className="size-4" aria-hidden="true" />
                  CSV<span className="sr-only"> statement for {monthName(m.month)}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function YearStatements({ months }: { months: RevenueMonth[] }) {
  const years = yearsOf(months);
  if (years.length === 0) return null;
  return (
    <nav aria-label="Yearly statements" className="mt-4 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">Yearly statements:</span>
      {years.map((y) => (
        <Button key={y} asChild variant="outline" size="sm">
          <a href={statementUrl({ year: y })} download>
            <Download aria-hidden="true" />
            {y} CSV<span className="sr-only"> statement</span>
          </a>
        </Button>
      ))}
    </nav>
  );
}

function StatusBadge({ status }: { status: WithdrawalDto['status'] }) {
  return (
    <Badge variant="outline" className={statusTone[status]}>
      {statusLabel[status]}
    </Badge>
  );
}

function WithdrawalsTable({ items }: { items: WithdrawalDto[] }) {
  if (items.length === 0)
    return <p className="py-4 text-sm text-muted-foreground">No withdrawal requests yet</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-sm">
        <caption className="sr-only">Withdrawal requests, newest first</caption>
        <thead className="text-left text-muted-foreground">
          <tr className="border-b">
            <TableHead>Requested</TableHead>
            <TableHead className={money}>Amount</TableHead>
            <TableHead>Method</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Processed</TableHead>
            <TableHead>Notes</TableHead>
          </tr>
        </thead>
        <tbody>
          {items.map((w) => (
            <tr key={w.id} className="border-b border-border/60 last:border-0">
              <td className="px-3 py-2">{formatDate(w.requested_at)}</td>
              <td className={money}>{formatCents(w.amount_cents)}</td>
              <td className="px-3 py-2">{w.payment_details_masked}</td>
              <td className="px-3 py-2">
                <StatusBadge status={w.status} />
              </td>
              <td className="px-3 py-2">{w.processed_at ? formatDate(w.processed_at) : '—'}</td>
              <td className="max-w-[16rem] truncate px-3 py-2" title={w.notes ?? undefined}>
                {w.notes ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export type ArtistRevenueState = {
  months: Part<RevenueMonth[]>;
  balance: Part<ArtistBalance>;
  withdrawals: Part<WithdrawalDto[]>;
};

/** The screen for given parts; each loads, fails and retries on its own. */
export function ArtistRevenueView({ months, balance, withdrawals }: ArtistRevenueState) {
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <Section
        id="balance"
        title="Balance"
        action={
          <Button asChild size="sm">
            <Link to="/withdrawal-settings">
              <Wallet aria-hidden="true" />
              Withdrawal Settings
            </Link>
          </Button>
        }
      >
        {balance.status === 'loading' && <Rows label="Loading your balance..." count={1} />}
        {balance.status === 'failed' && (
          <Failed part={balance} message={revenueMessages.loadFailed} />
        )}
        {balance.status === 'ready' && <BalanceFigures balance={balance.data} />}
      </Section>
      <Section id="monthly-revenue" title="Monthly Revenue">
        {months.status === 'loading' && <Rows label="Loading your revenue..." />}
        {months.status === 'failed' && (
          <Failed part={months} message={revenueMessages.loadFailed} />
        )}
        {months.status === 'ready' && (
          <>
            <MonthsTable months={months.data} />
            <YearStatements months={months.data} />
          </>
        )}
      </Section>
      <Section id="withdrawal-history" title="Withdrawal History">
        {withdrawals.status === 'loading' && <Rows label="Loading your withdrawals..." count={3} />}
        {withdrawals.status === 'failed' && (
          <Failed part={withdrawals} message={withdrawalMessages.loadFailed} />
        )}
        {withdrawals.status === 'ready' && <WithdrawalsTable items={withdrawals.data} />}
      </Section>
    </div>
  );
}

function partOf<T>(query: {
  data: T | undefined;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}): Part<T> {
  if (query.data !== undefined) return { status: 'ready', data: query.data };
  if (query.isError)
    return { status: 'failed', retrying: query.isFetching, onRetry: () => void query.refetch() };
  return { status: 'loading' };
}

export default function ArtistRevenuePage() {
  const months = useRevenueMonths();
  const balance = useArtistBalance();
  const withdrawals = useMyWithdrawals();
  return (
    <ArtistRevenueView
      months={partOf(months)}
      balance={partOf(balance)}
      withdrawals={partOf(withdrawals)}
    />
  );
}
