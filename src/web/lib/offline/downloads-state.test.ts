import { describe, expect, it } from 'vitest';
import { downloadsPlayable, type DownloadsSnapshot } from './downloads-state.ts';

const snapshot = (entitlement: DownloadsSnapshot['entitlement']): DownloadsSnapshot => ({
  ready: true,
  entries: [],
  pending: new Set(),
  entitlement,
});
const at = '2026-01-01T00:00:00.000Z';

describe('downloadsPlayable', () => {
  it('only while the last subscription check of this listener said subscribed', () => {
    expect(
      downloadsPlayable('u1', snapshot({ userId: 'u1', subscribed: true, checkedAt: at })),
    ).toBe(true);
    // Lapsed at the last online check: the files stay, they do not play.
    expect(
      downloadsPlayable('u1', snapshot({ userId: 'u1', subscribed: false, checkedAt: at })),
    ).toBe(false);
    // Another account's check on a shared device does not count, nor no check at all.
    expect(
      downloadsPlayable('u2', snapshot({ userId: 'u1', subscribed: true, checkedAt: at })),
    ).toBe(false);
    expect(downloadsPlayable('u1', snapshot(null))).toBe(false);
    expect(
      downloadsPlayable(null, snapshot({ userId: 'u1', subscribed: true, checkedAt: at })),
    ).toBe(false);
  });
});
