// Which line of synced lyrics is being sung: the last one whose time has come.

/** The index of the current line at `positionMs`, or -1 before the first line's time. */
export function currentLyricIndex(
  lines: ReadonlyArray<{ time_ms: number | null }>,
  positionMs: number,
): number {
  let lo = 0;
  let hi = lines.length - 1;
  let found = -1;
  // Lines are in time order (the server sorts them): the last one at or before the position.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((lines[mid]!.time_ms ?? Infinity) <= positionMs) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
