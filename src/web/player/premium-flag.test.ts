import { describe, expect, it } from 'vitest';
import type { PlayerEvent } from '@/core/player/player-machine.ts';
import {
  PremiumFlag,
  SKIP_LIMIT_DESCRIPTION,
  SKIP_LIMIT_TITLE,
  skipLimitToast,
} from './premium-flag.ts';

function flag() {
  const events: PlayerEvent[] = [];
  const logged: unknown[] = [];
  const f = new PremiumFlag(
    (e) => events.push(e),
    (_m, e) => logged.push(e),
  );
  return { f, events, logged };
}

describe('PremiumFlag', () => {
  it('the machine hears free while the check is pending, then premium once it says so', () => {
    const { f, events } = flag();
    f.follow({ subscribed: undefined, error: null });
    f.follow({ subscribed: undefined, error: null });
    f.follow({ subscribed: true, error: null });
    f.follow({ subscribed: true, error: null });
    f.follow({ subscribed: false, error: null });
    expect(events).toEqual([
      { type: 'premiumKnown', premium: false },
      { type: 'premiumKnown', premium: true },
      { type: 'premiumKnown', premium: false },
    ]);
  });

  it('a failed check counts as free and is logged once per failure', () => {
    const { f, events, logged } = flag();
    const down = new Error('down');
    f.follow({ subscribed: undefined, error: down });
    f.follow({ subscribed: undefined, error: down });
    f.follow({ subscribed: true, error: null });
    const again = new Error('down again');
    f.follow({ subscribed: undefined, error: again });
    expect(events).toEqual([
      { type: 'premiumKnown', premium: false },
      { type: 'premiumKnown', premium: true },
      { type: 'premiumKnown', premium: false },
    ]);
    expect(logged).toEqual([down, again]);
  });
});

describe('skipLimitToast', () => {
  it("shows spec §8's words when a skip was refused, nothing otherwise", () => {
    const shown: string[][] = [];
    skipLimitToast(null, (t, d) => shown.push([t, d]));
    skipLimitToast(1_700_000_000_000, (t, d) => shown.push([t, d]));
    expect(shown).toEqual([
      [
        'Skip limit reached',
        'Free users can skip 2 times per hour. Upgrade to Premium for unlimited skips!',
      ],
    ]);
    expect([SKIP_LIMIT_TITLE, SKIP_LIMIT_DESCRIPTION]).toEqual(shown[0]);
  });
});
