import { describe, expect, it } from 'vitest';
import { createSessionAccessCache } from './session-access-cache.ts';

type Row = { id: string; userId: string; expiresAt: Date; revokedAt: Date | null };
const T0 = Date.UTC(2026, 10, 29, 12);
const row = (id: string, userId = 'u1', expiresAt = T0 + 3_600_000): Row => ({
  id,
  userId,
  expiresAt: new Date(expiresAt),
  revokedAt: null,
});

/** A read that counts its calls and answers `value`. */
function reader(answer: { value: Row | null }) {
  const read = async () => {
    read.calls += 1;
    return answer.value;
  };
  read.calls = 0;
  return read;
}

describe('session access cache', () => {
  it('reads once, then answers from memory until the TTL', async () => {
    const cache = createSessionAccessCache<Row>({ ttlMs: 1_000 });
    const read = reader({ value: row('s1') });
    expect(await cache.through('s1', T0, read)).toEqual(row('s1'));
    expect(await cache.through('s1', T0 + 999, read)).toEqual(row('s1'));
    expect(read.calls).toBe(1);
    await cache.through('s1', T0 + 1_000, read);
    expect(read.calls).toBe(2);
  });

  it('never holds a row past its session’s expiry, nor a revoked or missing one', async () => {
    const cache = createSessionAccessCache<Row>({ ttlMs: 60_000 });
    const soon = reader({ value: row('s1', 'u1', T0 + 500) });
    await cache.through('s1', T0, soon);
    await cache.through('s1', T0 + 500, soon);
    expect(soon.calls).toBe(2);

    const revoked = reader({ value: { ...row('s2'), revokedAt: new Date(T0) } });
    await cache.through('s2', T0, revoked);
    await cache.through('s2', T0, revoked);
    expect(revoked.calls).toBe(2);

    const missing = reader({ value: null });
    expect(await cache.through('s3', T0, missing)).toBeNull();
    await cache.through('s3', T0, missing);
    expect(missing.calls).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('forgets every session of a user, and only theirs', async () => {
    const cache = createSessionAccessCache<Row>();
    const mine = reader({ value: row('s1', 'u1') });
    const also = reader({ value: row('s2', 'u1') });
    const theirs = reader({ value: row('s3', 'u2') });
    await cache.through('s1', T0, mine);
    await cache.through('s2', T0, also);
    await cache.through('s3', T0, theirs);
    cache.forgetUser('u1');
    await cache.through('s1', T0, mine);
    await cache.through('s2', T0, also);
    await cache.through('s3', T0, theirs);
    expect([mine.calls, also.calls, theirs.calls]).toEqual([2, 2, 1]);
    cache.clear();
    await cache.through('s3', T0, theirs);
    expect(theirs.calls).toBe(2);
  });

  it('does not keep what a read saw when a change was announced while it ran', async () => {
    const cache = createSessionAccessCache<Row>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stale = cache.through('s1', T0, async () => {
      await gate;
      return row('s1');
    });
    cache.forgetUser('u1'); // e.g. the session was revoked after the read began
    release();
    expect(await stale).toEqual(row('s1')); // answered (it was true when read)…
    const read = reader({ value: null });
    expect(await cache.through('s1', T0, read)).toBeNull(); // …but not kept
    expect(read.calls).toBe(1);
  });

  it('holds at most `max` sessions, dropping the oldest first', async () => {
    const cache = createSessionAccessCache<Row>({ max: 2 });
    const reads = ['s1', 's2', 's3'].map((id) => reader({ value: row(id) }));
    for (const [i, read] of reads.entries()) await cache.through(`s${i + 1}`, T0, read);
    expect(cache.size).toBe(2);
    for (const [i, read] of [...reads.entries()].reverse())
      await cache.through(`s${i + 1}`, T0, read);
    expect(reads.map((r) => r.calls)).toEqual([2, 1, 1]);
  });
});
