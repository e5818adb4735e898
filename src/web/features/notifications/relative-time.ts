// "x minutes ago" for the notification list (spec §2 Notifications).
import { useEffect, useState } from 'react';

const units = [
  { name: 'year', seconds: 365 * 24 * 3600 },
  { name: 'month', seconds: 30 * 24 * 3600 },
  { name: 'day', seconds: 24 * 3600 },
  { name: 'hour', seconds: 3600 },
  { name: 'minute', seconds: 60 },
] as const;

/** How long ago `iso` was, seen at `now`: 'less than a minute ago', '1 minute ago', '3 days ago'. */
export function timeAgo(iso: string, now: number): string {
  const elapsed = Math.max(0, (now - Date.parse(iso)) / 1000);
  for (const unit of units) {
    const n = Math.floor(elapsed / unit.seconds);
    if (n >= 1) return `${n} ${unit.name}${n === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}

/** The current time, renewed every `everyMs`, so relative times stay true on an open page. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
