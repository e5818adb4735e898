/** The Queue button's name: 'Queue' when empty, else 'Queue, 1 item' / 'Queue, 3 items'. */
export function queueButtonName(count: number): string {
  return count > 0 ? `Queue, ${count} ${count === 1 ? 'item' : 'items'}` : 'Queue';
}
