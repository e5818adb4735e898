// What a free listener is held to, as the player hears it: premium only when the server's
// subscription check says so (a pending or failed check means free, spec §4; a failure is
// logged once), and the toast of a refused skip (spec §8), shown each time one is refused.
import type { PlayerEvent } from '@/core/player/player-machine.ts';

export const SKIP_LIMIT_TITLE = 'Skip limit reached';
export const SKIP_LIMIT_DESCRIPTION =
  'Free users can skip 2 times per hour. Upgrade to Premium for unlimited skips!';

/** The subscription check as the query holds it. */
export interface SubscriptionCheck {
  subscribed: boolean | undefined;
  /** The check's failure, null while none. */
  error: unknown;
}

export class PremiumFlag {
  private known: boolean | null = null;
  private failure: unknown = null;

  constructor(
    private readonly dispatch: (event: PlayerEvent) => void,
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.warn(m, e),
  ) {}

  /** The check as it is now: the machine hears premium whenever it changes. */
  follow(check: SubscriptionCheck): void {
    const premium = check.subscribed === true;
    if (premium !== this.known) {
      this.known = premium;
      this.dispatch({ type: 'premiumKnown', premium });
    }
    if (check.error !== null && check.error !== this.failure)
      this.log('Subscription check failed', check.error);
    this.failure = check.error;
  }
}

/** The refused skip's toast, each time the machine refuses one (a new `skipBlockedAt`). */
export function skipLimitToast(
  skipBlockedAt: number | null,
  show: (title: string, description: string) => void,
): void {
  if (skipBlockedAt !== null) show(SKIP_LIMIT_TITLE, SKIP_LIMIT_DESCRIPTION);
}
