import { describe, expect, it } from 'vitest';
import {
  badgeText,
  clip,
  inAppLink,
  lessUnread,
  notificationNotices,
} from './notification.rules.ts';

describe('notification rules', () => {
  it("shows the badge count up to 9, then '9+', never below 0", () => {
    expect([0, 1, 9, 10, 250, -3].map(badgeText)).toEqual(['0', '1', '9', '9+', '9+', '0']);
    expect([lessUnread(3), lessUnread(0), lessUnread(2, 5)]).toEqual([2, 0, 0]);
  });

  it('keeps only in-app links', () => {
    expect(inAppLink('/profile/abc')).toBe('/profile/abc');
    expect(inAppLink('/upload?x=1#y')).toBe('/upload?x=1#y');
    for (const link of [
      'https://evil.example',
      '//evil.example',
      'javascript:alert(1)',
      '/\\evil',
      '/a b',
      '',
      null,
      undefined,
    ])
      expect(inAppLink(link)).toBeNull();
  });

  it('cuts long texts by characters, marking the cut', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('🎵🎵🎵', 2)).toBe('🎵…');
  });

  it('names the artist and the release in its notice', () => {
    expect(
      notificationNotices.newRelease({
        artistId: 'a1',
        artist: 'Nova',
        title: 'Blue',
        kind: 'song',
      }),
    ).toEqual({ title: 'New release', message: 'Nova released "Blue"', link: '/profile/a1' });
    expect(
      notificationNotices.newRelease({
        artistId: 'a1',
        artist: null,
        title: 'Ep 1',
        kind: 'episode',
      }),
    ).toMatchObject({ title: 'New episode', message: 'An artist you follow published "Ep 1"' });
  });
});
