/** How long a failed job waits before its next attempt. */
export type Backoff = {
  /** The wait after the first failure; it doubles with each further one. */
  baseMs: number;
  /** The longest wait, whatever the attempt. */
  maxMs: number;
};

export const defaultBackoff: Backoff = { baseMs: 5_000, maxMs: 60 * 60_000 };

/**
 * Exponential backoff with "equal jitter": after failure n (1-based) the wait is between half
 * and all of min(maxMs, baseMs·2^(n-1)). The jitter spreads out jobs that failed together
 * (an outage) so their retries do not arrive at once; the floor keeps retries from piling
 * onto a service that just failed.
 */
export function retryDelayMs(failures: number, backoff: Backoff, random = Math.random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 40);
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
