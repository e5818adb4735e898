/**
 * The session rows behind access tokens, kept briefly in this process (ADR 0030): every
 * signed-in request needs its session's level, factor flag, expiry and revocation, and a
 * player sends one every few seconds, so a database round trip per request was a third of a
 * listening write's cost. What changes that row is forgotten here in the same process at
 * once (the sessions service calls `forgetUser` after its writes) and in every other process
 * when the database announces it (SESSION_ACCESS_CHANGED_CHANNEL, migration 0029's triggers);
 * when announcements may have been missed the whole cache is dropped. TTL bounds the rest.
 */

/** Longest an entry is trusted without a read: an announcement lost without notice. */
export const SESSION_ACCESS_TTL_MS = 60_000;
/** At most this many sessions are held; the oldest entry leaves first. */
export const SESSION_ACCESS_MAX = 20_000;

type Cacheable = { userId: string; expiresAt: Date; revokedAt: Date | null };
type Entry<Row> = { row: Row; until: number };

export type SessionAccessCache<Row extends Cacheable> = ReturnType<
  typeof createSessionAccessCache<Row>
>;

export function createSessionAccessCache<Row extends Cacheable>(
  options: { ttlMs?: number; max?: number } = {},
) {
  const ttlMs = options.ttlMs ?? SESSION_ACCESS_TTL_MS;
  const max = options.max ?? SESSION_ACCESS_MAX;
  const entries = new Map<string, Entry<Row>>();
  // Bumped by every forget: a read that began before one may have seen the old row, so its
  // result is not kept (it is still answered; the next request reads again).
  let generation = 0;

  return {
    /** The cached row, or undefined when there is none (or it is too old to trust). */
    get(sessionId: string, nowMs: number): Row | undefined {
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      if (entry.until > nowMs) return entry.row;
      entries.delete(sessionId);
      return undefined;
    },

    /**
     * Reads through the cache: `read` runs on a miss and a live row it answers is kept until
     * the TTL or the session's own expiry, whichever is first.
     */
    async through(
      sessionId: string,
      nowMs: number,
      read: () => Promise<Row | null>,
    ): Promise<Row | null> {
      const hit = this.get(sessionId, nowMs);
      if (hit) return hit;
      const started = generation;
      const row = await read();
      if (!row || row.revokedAt || started !== generation) return row;
      const until = Math.min(nowMs + ttlMs, row.expiresAt.getTime());
      if (until <= nowMs) return row;
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(sessionId, { row, until });
      return row;
    },

    /** The user's sessions changed (revoked, raised, refreshed, factors): read them again. */
    forgetUser(userId: string): void {
      generation += 1;
      for (const [id, entry] of entries) if (entry.row.userId === userId) entries.delete(id);
    },

    /** Announcements may have been missed: trust nothing held. */
    clear(): void {
      generation += 1;
      entries.clear();
    },

    get size(): number {
      return entries.size;
    },
  };
}
