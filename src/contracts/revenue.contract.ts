import { z } from 'zod';
import { revenueMessages } from '../core/validation/revenue.rules.ts';
import { isMonth, YEAR_PATTERN } from '../core/validation/revenue-month.rules.ts';

/*
 * Artist revenue (docs/decisions/0029; spec §3 artist_revenue and the revenue calculation
 * result, §7 calculate-revenue). Money is integer cents as JSON numbers, as elsewhere
 * (premium's price_cents); the calculation result also gives the pool in dollars, as the spec
 * names it.
 */

export const monthString = z
  .string()
  .refine(isMonth, { message: revenueMessages.monthInvalid })
  .describe('a UTC calendar month, YYYY-MM');

/** One (artist, month) row as the artist's revenue screen shows it. */
export const revenueMonth = z.object({
  month: monthString,
  premium_revenue: z.number().int().describe('cents'),
  ad_revenue: z.number().int().describe('cents'),
  tip_revenue: z.number().int().describe('cents'),
  total_revenue: z.number().int().describe('cents: premium + ad + tip'),
  total_streams: z.number().int().describe("stream records of the artist's items in the month"),
});
export type RevenueMonth = z.infer<typeof revenueMonth>;

/** GET /api/artist/revenue: the caller's months, newest first. */
export const revenueMonthList = z.object({ items: z.array(revenueMonth) });
export type RevenueMonthList = z.infer<typeof revenueMonthList>;

/** GET /api/artist/revenue/statement: exactly one of month or year. */
export const statementQuery = z
  .object({
    month: monthString.optional(),
    year: z
      .string()
      .regex(YEAR_PATTERN, { message: 'Year must be written YYYY' })
      .optional()
      .describe('a calendar year, YYYY'),
  })
  .refine((q) => (q.month === undefined) !== (q.year === undefined), {
    message: 'Give either a month (YYYY-MM) or a year (YYYY)',
  });
export type StatementQuery = z.infer<typeof statementQuery>;

/** Spec §3 revenue calculation result, with the pool in cents beside its dollars. */
export const revenueRunResult = z.object({
  month: monthString,
  artistsProcessed: z.number().int(),
  totalPremiumPool: z.number().describe('all contributions of the month, in dollars'),
  totalPremiumPoolCents: z.number().int().describe('the same, in cents'),
  ranAt: z.string().describe('ISO timestamp'),
});
export type RevenueRunResult = z.infer<typeof revenueRunResult>;

/** GET /api/admin/revenue/last: the newest run, or null before the first. */
export const lastRevenueRun = z.object({ run: revenueRunResult.nullable() });
export type LastRevenueRun = z.infer<typeof lastRevenueRun>;
