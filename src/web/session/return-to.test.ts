import { describe, expect, it } from 'vitest';
import { authState, authTab, returnTo } from './return-to.ts';

describe('returnTo', () => {
  it('returns to the page the visitor opened', () => {
    expect(returnTo(authState('/playlist/p1'))).toBe('/playlist/p1');
    expect(returnTo({ from: '/podcasts?show=s1' })).toBe('/podcasts?show=s1');
  });

  it('reads ?next= from a link outside the app', () => {
    expect(returnTo(null, '?next=%2Fsong%2Fs1')).toBe('/song/s1');
    expect(returnTo(null, '?next=https%3A%2F%2Fevil.example')).toBe('/');
    expect(authTab(null, '?tab=sign-up&next=%2Fsong%2Fs1')).toBe('sign-up');
  });

  it('goes home without a state, or for anything but a path of this app', () => {
    for (const state of [null, undefined, {}, { from: 7 }, { from: 'https://evil.example' }])
      expect(returnTo(state)).toBe('/');
    expect(returnTo({ from: '//evil.example/x' })).toBe('/');
    expect(returnTo({ from: '/auth' })).toBe('/');
  });

  it('opens the sign-up form only when asked', () => {
    expect(authTab(authState('/song/s1', 'sign-up'))).toBe('sign-up');
    expect(authTab(authState('/song/s1'))).toBe('sign-in');
    expect(authTab(null)).toBe('sign-in');
  });
});
