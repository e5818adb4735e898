import { centsToDollars } from '../../../core/validation/revenue-month.rules.ts';
import type { MonthRow } from './revenue.repository.ts';

const HEADER = [
  'month',
  'premium_revenue_usd',
  'ad_revenue_usd',
  'tip_revenue_usd',
  'total_revenue_usd',
  'total_streams',
];

/**
 * One CSV field: quoted when it holds a separator, quote or line break; a text that a
 * spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with ' (OWASP).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The artist's statement: a line per month, oldest first, then a total line; amounts in
 * dollars with two decimals (exact, from cents). Every field is the server's own figures,
 * and still goes through csvField, so nothing a cell holds can become a formula.
 */
export function statementCsv(rows: MonthRow[]): string {
  const line = (cells: string[]) => cells.map(csvField).join(',');
  const sum = (pick: (r: MonthRow) => bigint) => rows.reduce((s, r) => s + pick(r), 0n);
  const lines = [
    line(HEADER),
    ...rows.map((r) =>
      line([
        r.month,
        centsToDollars(r.premiumRevenueCents),
        centsToDollars(r.adRevenueCents),
        centsToDollars(r.tipRevenueCents),
        centsToDollars(r.totalRevenueCents),
        String(r.totalStreams),
      ]),
    ),
    line([
      'total',
      centsToDollars(sum((r) => r.premiumRevenueCents)),
      centsToDollars(sum((r) => r.adRevenueCents)),
      centsToDollars(sum((r) => r.tipRevenueCents)),
      centsToDollars(sum((r) => r.totalRevenueCents)),
      String(rows.reduce((s, r) => s + r.totalStreams, 0)),
    ]),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
