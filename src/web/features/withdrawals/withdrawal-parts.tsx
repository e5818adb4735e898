import type { WithdrawalStatus } from '@/core/validation/withdrawal.rules.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { cn } from '@/web/components/ui/cn.ts';

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
