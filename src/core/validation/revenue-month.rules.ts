// The revenue month (docs/decisions/0029): a UTC calendar month written YYYY-MM. Pure.
import { MONTH_PATTERN } from './revenue.rules.ts';

/** A year of statements: four digits. */
export const YEAR_PATTERN = /^\d{4}$/;

export function isMonth(value: string): boolean {
  return MONTH_PATTERN.test(value);
}

/** The first instant of the month and of the next one, UTC. */
export function monthRange(month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)), end: new Date(Date.UTC(y, m, 1)) };
}

/** The month before `month`. */
export function previousMonth(month: string): string {
  const { start } = monthRange(month);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 7);
}

/** The month after `month`. */
export function nextMonth(month: string): string {
  return monthRange(month).end.toISOString().slice(0, 7);
}

/** Cents as dollars for display and statements: 123456 → '1234.56', -5 → '-0.05'. */
export function centsToDollars(cents: number | bigint): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
