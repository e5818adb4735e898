import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import { withdrawalMessages } from '@/core/validation/revenue.rules.ts';
import type { WithdrawalStatus } from '@/core/validation/withdrawal.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Badge } from '@/web/components/ui/badge.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';

const statusStyle: Record<WithdrawalStatus, string> = {
  pending: 'border-amber-500/40 bg-amber-500/15 text-amber-700 dark:text-amber-300',
  processing: 'border-sky-500/40 bg-sky-500/15 text-sky-700 dark:text-sky-300',
  completed: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  rejected: 'border-red-500/40 bg-red-500/15 text-red-700 dark:text-red-300',
};

/** A request's status as a badge: the word itself, so colour is never the only sign. */
export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  return (
    <Badge variant="outline" className={cn('capitalize', statusStyle[status])}>
      {status}
    </Badge>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function DateTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted-foreground">—</span>;
  const d = new Date(iso);
  return <time dateTime={iso}>{Number.isNaN(d.getTime()) ? iso : dateFormat.format(d)}</time>;
}

/** A list of requests in a card: its skeleton, its failure with Retry, its empty state, or the rows. */
export function RequestsBody<T>({
  query,
  loadingLabel,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  loadingLabel: string;
  empty: { icon: LucideIcon; text: string };
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending)
    return (
      <div className="grid gap-2 border-t px-6 py-4" aria-busy="true" aria-label={loadingLabel}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-10" />
        ))}
      </div>
    );
  if (query.isError)
    return (
      <div className="border-t p-6">
        <LoadFailed
          message={withdrawalMessages.loadFailed}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  if (query.data.length === 0) {
    const Icon = empty.icon;
    return (
      <div className="flex flex-col items-center gap-2 border-t px-6 py-12 text-center text-muted-foreground">
        <Icon className="size-8" aria-hidden="true" />
        <p>{empty.text}</p>
      </div>
    );
  }
  return children(query.data);
}
