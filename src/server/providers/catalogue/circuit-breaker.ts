import type { Clock } from '../../../core/clock.ts';

export type BreakerOptions = {
  clock: Clock;
  /** Consecutive failures that open the breaker. */
  threshold: number;
  /** How long an open breaker skips calls before one trial; doubles while trials fail. */
  coolDownMs: number;
  maxCoolDownMs: number;
};

/** What a failure did: still closed, just opened (an outage starts), or open already. */
export type FailureOutcome = 'counted' | 'opened' | 'still-open';

/**
 * Remembers that a remote service is failing so callers stop waiting on it: closed (calls
 * go through) → open after `threshold` consecutive failures (calls are skipped) → after the
 * cool-down one trial call; its success closes the breaker, its failure opens it again.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil: number | null = null;
  private coolDown: number;
  private trialInFlight = false;

  constructor(private readonly options: BreakerOptions) {
    this.coolDown = options.coolDownMs;
  }

  get isOpen(): boolean {
    return this.openUntil !== null;
  }

  /** Whether a call may go out now; a true while open is the one trial, to be settled. */
  tryAcquire(): boolean {
    if (this.openUntil === null) return true;
    if (this.trialInFlight || this.options.clock.now().getTime() < this.openUntil) return false;
    this.trialInFlight = true;
    return true;
  }

  /** Settles a call; true when it ended an outage. */
  succeeded(): boolean {
    const wasOpen = this.openUntil !== null;
    this.failures = 0;
    this.openUntil = null;
    this.trialInFlight = false;
    this.coolDown = this.options.coolDownMs;
    return wasOpen;
  }

  failed(): FailureOutcome {
    const now = this.options.clock.now().getTime();
    if (this.openUntil !== null) {
      // Only the trial settles while open; calls from before the opening change nothing.
      if (!this.trialInFlight) return 'still-open';
      this.trialInFlight = false;
      this.coolDown = Math.min(this.coolDown * 2, this.options.maxCoolDownMs);
      this.openUntil = now + this.coolDown;
      return 'still-open';
    }
    this.failures += 1;
    if (this.failures < this.options.threshold) return 'counted';
    this.openUntil = now + this.coolDown;
    return 'opened';
  }
}
