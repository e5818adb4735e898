// How the listening screens put figures and times into words (spec §2 Recently played,
// Stats). English, like every other text of the app.
const LOCALE = 'en-US';

const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
// The server sends hours with two decimals: 12.5, 1,024.
const hours = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

/** 1,234 */
export const formatCount = (n: number): string => integer.format(n);
/**
 * Time listened, given in hours: under one hour in whole minutes ('45 min', not '0.75'),
 * else hours ('1 hour', '12.5 hours').
 */
export function formatListened(h: number): string {
  if (!(h > 0)) return '0 min';
  if (h < 1) {
    const minutes = Math.round(h * 60);
    // Rounding up to 60 would read as '60 min' for what is under an hour.
    return minutes < 1 ? '< 1 min' : `${Math.min(59, minutes)} min`;
  }
  return `${hours.format(h)} ${h === 1 ? 'hour' : 'hours'}`;
}
/** Completion rate, a percent with one decimal at most: '87.5%' */
export const formatPercent = (p: number): string => `${percent.format(p)}%`;

/** '1 stream', '12 streams' */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * A bar's length in percent of the largest value (spec §2: genres relative to the top
 * genre, days relative to the busiest day). A value above zero always shows a little.
 */
export function barPercent(value: number, max: number): number {
  if (!(max > 0) || !(value > 0)) return 0;
  return Math.max(2, Math.min(100, (value / max) * 100));
}

/** Spec §2: the activity chart is shown only if some day has a stream. */
export function hasActivity(days: ReadonlyArray<{ streams: number }>): boolean {
  return days.some((d) => d.streams > 0);
}

// Activity dates are UTC calendar days ('YYYY-MM-DD'), so they are read in UTC.
const weekdayShort = new Intl.DateTimeFormat(LOCALE, { weekday: 'short', timeZone: 'UTC' });
const dayLong = new Intl.DateTimeFormat(LOCALE, {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

function utcDay(date: string): Date | null {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'Mon' under a bar. */
export function dayShort(date: string): string {
  const d = utcDay(date);
  return d ? weekdayShort.format(d) : date;
}

/** 'Monday, March 3' for screen readers. */
export function dayFull(date: string): string {
  const d = utcDay(date);
  return d ? dayLong.format(d) : date;
}

const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' });
const fullDate = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When a play started, as people say it: 'just now', '5 minutes ago', 'yesterday', 'Mar 3, 2025'. */
export function playedAgo(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return '';
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relative.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relative.format(-Math.floor(ago / DAY), 'day');
  return playedAt(iso);
}

/** The full date and time, for a tooltip. */
export function playedAt(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : fullDate.format(d);
}
