// Tips (docs/decisions/0029): a listener's one-off payment to an artist, $1–$100, credited to
// the artist's month less the platform fee. Shared by web and server; pure.

/** The smallest and largest tip, in cents ($1 and $100). */
export const MIN_TIP_CENTS = 100;
export const MAX_TIP_CENTS = 10_000;
/** A tip's note to the artist, at most this many characters (the column's check). */
export const TIP_MESSAGE_MAX = 280;

/** '$5.00' from 500. */
export const formatCents = (cents: number) =>
  `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;

/**
 * Dollars as typed into the tip form ('5', '5.5', '12.34') in cents, or null when it is not
 * an amount with at most two decimals. Parsed as text so 0.1 + 0.2 style errors never reach
 * money.
 */
export function dollarsToCents(text: string): number | null {
  const m = /^\s*(\d{1,6})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export const tipMessages = {
  amountRange: 'A tip must be between $1 and $100',
  notArtist: 'Only artists can be tipped',
  ownTip: 'You cannot tip yourself',
  notFound: 'Tip not found',
  localOff: 'Test-mode checkout is not enabled on this server',
  notPending: 'This tip can no longer be confirmed',
  failed: 'Failed to send tip',
  thanks: (amount: string, name: string) => `Thank you! Your ${amount} tip to ${name} was sent.`,
} as const;
