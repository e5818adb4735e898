import { describe, expect, it } from 'vitest';
import {
  decideRefresh,
  REFRESH_REUSE_INTERVAL_MS,
  SESSION_IDLE_TTL_MS,
  sessionEnd,
  sessionExpiryFrom,
  sessionIsLive,
} from './refresh-rotation.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const LIFETIME_MS = 90 * DAY_MS;

/** A session signed in at `now`, as start() makes it. */
const freshSession = (now: Date) => ({
  revokedAt: null,
  createdAt: now,
  expiresAt: sessionExpiryFrom(now, now, LIFETIME_MS),
});

/** A hand-moved clock, as the server injects one. */
function clockAt(iso: string) {
  let t = Date.parse(iso);
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

describe('decideRefresh', () => {
  const clock = clockAt('2025-01-01T00:00:00Z');
  const session = () => freshSession(clock.now());

  it('accepts a token never exchanged in a live session', () => {
    expect(decideRefresh({ rotatedAt: null }, session(), clock.now(), LIFETIME_MS)).toBe('valid');
  });

  it('calls a token exchanged the reuse interval ago or earlier reuse', () => {
    const s = session();
    const rotatedAt = clock.now();
    clock.advance(REFRESH_REUSE_INTERVAL_MS);
    expect(decideRefresh({ rotatedAt }, s, clock.now(), LIFETIME_MS)).toBe('reused');
    clock.advance(60_000);
    expect(decideRefresh({ rotatedAt }, s, clock.now(), LIFETIME_MS)).toBe('reused');
  });

  it('reissues, not revokes, for a token exchanged less than the reuse interval ago', () => {
    expect(REFRESH_REUSE_INTERVAL_MS).toBe(10_000);
    const c = clockAt('2025-02-01T00:00:00Z');
    const s = freshSession(c.now());
    const rotatedAt = c.now();
    expect(decideRefresh({ rotatedAt }, s, c.now(), LIFETIME_MS)).toBe('reissue');
    c.advance(REFRESH_REUSE_INTERVAL_MS - 1);
    expect(decideRefresh({ rotatedAt }, s, c.now(), LIFETIME_MS)).toBe('reissue');
    c.advance(1);
    expect(decideRefresh({ rotatedAt }, s, c.now(), LIFETIME_MS)).toBe('reused');
  });

  it('judges each token of a chain by its own exchange: a grandparent outside the interval is reuse', () => {
    const c = clockAt('2025-02-02T00:00:00Z');
    const s = freshSession(c.now());
    const grandparentRotatedAt = c.now();
    c.advance(REFRESH_REUSE_INTERVAL_MS - 2000);
    const parentRotatedAt = c.now();
    c.advance(3000);
    expect(decideRefresh({ rotatedAt: parentRotatedAt }, s, c.now(), LIFETIME_MS)).toBe('reissue');
    expect(decideRefresh({ rotatedAt: grandparentRotatedAt }, s, c.now(), LIFETIME_MS)).toBe(
      'reused',
    );
  });

  it('never reissues for a revoked or expired family, even within the interval', () => {
    const c = clockAt('2025-02-03T00:00:00Z');
    const rotatedAt = c.now();
    const revoked = { ...freshSession(c.now()), revokedAt: c.now() };
    const ended = { ...freshSession(c.now()), expiresAt: c.now() };
    c.advance(1000);
    expect(decideRefresh({ rotatedAt }, revoked, c.now(), LIFETIME_MS)).toBe('revoked');
    expect(decideRefresh({ rotatedAt }, ended, c.now(), LIFETIME_MS)).toBe('expired');
  });

  it('calls the session expired once its expiry is reached, and not a millisecond before', () => {
    const c = clockAt('2025-03-01T12:00:00Z');
    const s = freshSession(c.now());
    c.advance(SESSION_IDLE_TTL_MS - 1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now(), LIFETIME_MS)).toBe('valid');
    c.advance(1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now(), LIFETIME_MS)).toBe('expired');
  });

  it('calls a revoked family revoked, for a fresh or an exchanged token', () => {
    const s = { ...session(), revokedAt: clock.now() };
    expect(decideRefresh({ rotatedAt: null }, s, clock.now(), LIFETIME_MS)).toBe('revoked');
    expect(decideRefresh({ rotatedAt: clock.now() }, s, clock.now(), LIFETIME_MS)).toBe('revoked');
  });

  it('does not report reuse for an expired family (nothing left to revoke)', () => {
    const c = clockAt('2025-06-01T00:00:00Z');
    const s = freshSession(c.now());
    const rotatedAt = c.now();
    c.advance(SESSION_IDLE_TTL_MS + 1);
    expect(decideRefresh({ rotatedAt }, s, c.now(), LIFETIME_MS)).toBe('expired');
  });
});

describe('absolute lifetime', () => {
  it('slides the expiry by the idle time, but never past sign-in plus the lifetime', () => {
    const signIn = new Date('2025-01-01T00:00:00Z');
    const at = (days: number) => new Date(signIn.getTime() + days * DAY_MS);
    expect(sessionExpiryFrom(at(10), signIn, LIFETIME_MS)).toEqual(at(40));
    expect(sessionExpiryFrom(at(60), signIn, LIFETIME_MS)).toEqual(at(90));
    expect(sessionExpiryFrom(at(89), signIn, LIFETIME_MS)).toEqual(at(90));
    // A lifetime shorter than the idle time bounds even the first expiry.
    expect(sessionExpiryFrom(signIn, signIn, 7 * DAY_MS)).toEqual(at(7));
  });

  it('calls a session expired at sign-in plus the lifetime, whatever its stored expiry', () => {
    const c = clockAt('2025-04-01T00:00:00Z');
    // Refreshed to a later expiry under a longer lifetime (the setting was lowered since).
    const s = { ...freshSession(c.now()), expiresAt: new Date(c.now().getTime() + 365 * DAY_MS) };
    expect(sessionEnd(s, LIFETIME_MS)).toBe(c.now().getTime() + LIFETIME_MS);
    c.advance(LIFETIME_MS - 1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now(), LIFETIME_MS)).toBe('valid');
    expect(sessionIsLive(s, c.now(), LIFETIME_MS)).toBe(true);
    c.advance(1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now(), LIFETIME_MS)).toBe('expired');
    expect(sessionIsLive(s, c.now(), LIFETIME_MS)).toBe(false);
  });
});

describe('sessionIsLive', () => {
  it('is false when revoked or expired, true otherwise', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const later = new Date(now.getTime() + 1000);
    const s = { revokedAt: null, createdAt: now, expiresAt: later };
    expect(sessionIsLive(s, now, LIFETIME_MS)).toBe(true);
    expect(sessionIsLive({ ...s, revokedAt: now }, now, LIFETIME_MS)).toBe(false);
    expect(sessionIsLive({ ...s, expiresAt: now }, now, LIFETIME_MS)).toBe(false);
  });
});
