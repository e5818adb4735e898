import { describe, expect, it } from 'vitest';
import {
  decideRefresh,
  REFRESH_REUSE_INTERVAL_MS,
  SESSION_IDLE_TTL_MS,
  sessionExpiryFrom,
  sessionIsLive,
} from './refresh-rotation.ts';

/** A hand-moved clock, as the server injects one. */
function clockAt(iso: string) {
  let t = Date.parse(iso);
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

describe('decideRefresh', () => {
  const clock = clockAt('2025-01-01T00:00:00Z');
  const session = () => ({ revokedAt: null, expiresAt: sessionExpiryFrom(clock.now()) });

  it('accepts a token never exchanged in a live session', () => {
    expect(decideRefresh({ rotatedAt: null }, session(), clock.now())).toBe('valid');
  });

  it('calls a token exchanged the reuse interval ago or earlier reuse', () => {
    const s = session();
    const rotatedAt = clock.now();
    clock.advance(REFRESH_REUSE_INTERVAL_MS);
    expect(decideRefresh({ rotatedAt }, s, clock.now())).toBe('reused');
    clock.advance(60_000);
    expect(decideRefresh({ rotatedAt }, s, clock.now())).toBe('reused');
  });

  it('reissues, not revokes, for a token exchanged less than the reuse interval ago', () => {
    expect(REFRESH_REUSE_INTERVAL_MS).toBe(10_000);
    const c = clockAt('2025-02-01T00:00:00Z');
    const s = { revokedAt: null, expiresAt: sessionExpiryFrom(c.now()) };
    const rotatedAt = c.now();
    expect(decideRefresh({ rotatedAt }, s, c.now())).toBe('reissue');
    c.advance(REFRESH_REUSE_INTERVAL_MS - 1);
    expect(decideRefresh({ rotatedAt }, s, c.now())).toBe('reissue');
    c.advance(1);
    expect(decideRefresh({ rotatedAt }, s, c.now())).toBe('reused');
  });

  it('judges each token of a chain by its own exchange: a grandparent outside the interval is reuse', () => {
    const c = clockAt('2025-02-02T00:00:00Z');
    const s = { revokedAt: null, expiresAt: sessionExpiryFrom(c.now()) };
    const grandparentRotatedAt = c.now();
    c.advance(REFRESH_REUSE_INTERVAL_MS - 2000);
    const parentRotatedAt = c.now();
    c.advance(3000);
    expect(decideRefresh({ rotatedAt: parentRotatedAt }, s, c.now())).toBe('reissue');
    expect(decideRefresh({ rotatedAt: grandparentRotatedAt }, s, c.now())).toBe('reused');
  });

  it('never reissues for a revoked or expired family, even within the interval', () => {
    const c = clockAt('2025-02-03T00:00:00Z');
    const rotatedAt = c.now();
    const revoked = { revokedAt: c.now(), expiresAt: sessionExpiryFrom(c.now()) };
    const ended = { revokedAt: null, expiresAt: c.now() };
    c.advance(1000);
    expect(decideRefresh({ rotatedAt }, revoked, c.now())).toBe('revoked');
    expect(decideRefresh({ rotatedAt }, ended, c.now())).toBe('expired');
  });

  it('calls the session expired once its expiry is reached, and not a millisecond before', () => {
    const c = clockAt('2025-03-01T12:00:00Z');
    const s = { revokedAt: null, expiresAt: sessionExpiryFrom(c.now()) };
    c.advance(SESSION_IDLE_TTL_MS - 1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now())).toBe('valid');
    c.advance(1);
    expect(decideRefresh({ rotatedAt: null }, s, c.now())).toBe('expired');
  });

  it('calls a revoked family revoked, for a fresh or an exchanged token', () => {
    const s = { ...session(), revokedAt: clock.now() };
    expect(decideRefresh({ rotatedAt: null }, s, clock.now())).toBe('revoked');
    expect(decideRefresh({ rotatedAt: clock.now() }, s, clock.now())).toBe('revoked');
  });

  it('does not report reuse for an expired family (nothing left to revoke)', () => {
    const c = clockAt('2025-06-01T00:00:00Z');
    const s = { revokedAt: null, expiresAt: sessionExpiryFrom(c.now()) };
    const rotatedAt = c.now();
    c.advance(SESSION_IDLE_TTL_MS + 1);
    expect(decideRefresh({ rotatedAt }, s, c.now())).toBe('expired');
  });
});

describe('sessionIsLive', () => {
  it('is false when revoked or expired, true otherwise', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const later = new Date(now.getTime() + 1000);
    expect(sessionIsLive({ revokedAt: null, expiresAt: later }, now)).toBe(true);
    expect(sessionIsLive({ revokedAt: now, expiresAt: later }, now)).toBe(false);
    expect(sessionIsLive({ revokedAt: null, expiresAt: now }, now)).toBe(false);
  });
});
