// A playlist's order as the screen shows it before the server confirms a move.
/** `items` with the one at `from` moved to `to` (the server's move: out, then in at `to`). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(Math.min(to, next.length), 0, moved);
  return next;
}
