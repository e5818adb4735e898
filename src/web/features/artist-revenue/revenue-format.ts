// How the revenue screen writes money, months, dates and a withdrawal's status.
import type { WithdrawalDto } from '@/contracts/withdrawals.contract.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const monthYear = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Whole cents as dollars: 123456 → '$1,234.56'. */
export const formatCents = (cents: number): string => dollars.format(cents / 100);
export const formatCount = (n: number): string => integer.format(n);
/** 'YYYY-MM' → 'October 2026'. */
export const monthName = (month: string): string =>
  monthYear.format(new Date(`${month}-01T00:00:00Z`));
export const formatDate = (iso: string): string => dateTime.format(new Date(iso));

/** The years of the given months, newest first, for the yearly statements. */
export function yearsOf(months: readonly { month: string }[]): string[] {
  return [...new Set(months.map((m) => m.month.slice(0, 4)))].sort().reverse();
}

export const statusLabel: Record<WithdrawalDto['status'], string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  rejected: 'Rejected',
};

/** The badge's colours per status: text and tone, never colour alone (the word is there). */
export const statusTone: Record<WithdrawalDto['status'], string> = {
  pending: 'border-amber-400/50 bg-amber-400/15 text-amber-200',
  processing: 'border-sky-400/50 bg-sky-400/15 text-sky-200',
  completed: 'border-emerald-400/50 bg-emerald-400/15 text-emerald-200',
  rejected: 'border-red-400/50 bg-red-400/15 text-red-200',
};
