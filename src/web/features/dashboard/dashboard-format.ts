// How the dashboard writes its figures: counts, dollars, days and the tier.
import type { ArtistAnalytics } from '@/contracts/artist-analytics.contract.ts';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCount = (n: number): string => integer.format(n);

/** Whole cents as dollars: 1234 → '$12.34'. */
export const formatCents = (cents: number): string => dollars.format(cents / 100);

export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

// Dates are UTC days ('YYYY-MM-DD'), so they are read and written in UTC.
const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const full = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const monthYear = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export const dayShort = (date: string): string => short.format(new Date(`${date}T00:00:00Z`));
export const dayFull = (date: string): string => full.format(new Date(`${date}T00:00:00Z`));
/** 'YYYY-MM' → 'October 2026'. */
export const monthName = (month: string): string =>
  monthYear.format(new Date(`${month}-01T00:00:00Z`));

export const tierName = (tier: NonNullable<ArtistAnalytics['tier']>['tier']): string =>
  tier.charAt(0).toUpperCase() + tier.slice(1);

/** A new artist: nothing published and nothing streamed yet. */
export function isNewArtist(a: ArtistAnalytics): boolean {
  return a.songs_count === 0 && a.episodes_count === 0 && a.streams_30d === 0;
}

/** The busiest day of a series (the first of equals), or null when nothing was played. */
export function busiestDay<T extends { date: string }>(
  days: readonly T[],
  value: (d: T) => number,
): T | null {
  let best: T | null = null;
  for (const d of days) if (value(d) > 0 && (!best || value(d) > value(best))) best = d;
  return best;
}

/** 'x days ago' for a follow, from the answer's timestamp and now. */
export function followedAgo(iso: string, now: number): string {
  const days = Math.floor((now - Date.parse(iso)) / 86_400_000);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}
