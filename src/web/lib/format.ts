/** The bell badge: the count, or '9+' above 9 (spec §4). */
export function badgeCount(count: number): string {
  return count > 9 ? '9+' : String(Math.max(0, count));
}

/** First letter for avatar fallbacks. */
export function initial(name: string | null | undefined): string {
  return (name?.trim()[0] ?? '?').toUpperCase();
}
