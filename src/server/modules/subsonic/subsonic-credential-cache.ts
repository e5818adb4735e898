/**
 * What a /rest request's sign-in needs, kept briefly in this process (docs/decisions/0034,
 * "Credentials held in memory"): a phone app authenticates every request, a stream's Range
 * requests included, so reading the user, their app passwords and their roles each time was
 * most of a request's cost. An entry is the user's opened secrets and roles under their email
 * (and under each secret's row id, for apiKey). It is forgotten here at once when this process
 * writes an app password, and in every other process when the database announces a write to
 * a user's app passwords, roles or email (SUBSONIC_CREDENTIALS_CHANNEL). TTL bounds the rest.
 */
import type { Role } from '../../../contracts/auth.contract.ts';

export const SUBSONIC_CREDENTIALS_TTL_MS = 60_000;
export const SUBSONIC_CREDENTIALS_MAX = 10_000;

export type Credentials = {
  userId: string;
  email: string;
  /** Opened secrets by their row id. */
  secrets: Array<{ id: string; secret: string }>;
  roles: Role[];
};

// `null`: no such user (or key), held as well, so an unknown email answers as fast as a known
// one and timing tells nothing about which accounts exist.
type Entry = { value: Credentials | null; until: number };

export type SubsonicCredentialCache = ReturnType<typeof createSubsonicCredentialCache>;

export function createSubsonicCredentialCache(options: { ttlMs?: number; max?: number } = {}) {
  const ttlMs = options.ttlMs ?? SUBSONIC_CREDENTIALS_TTL_MS;
  const max = options.max ?? SUBSONIC_CREDENTIALS_MAX;
  const byKey = new Map<string, Entry>();
  // Bumped by every forget: a read that began before one may have seen what was just revoked,
  // so its answer is used once and not kept.
  let generation = 0;

  return {
    /**
     * The credentials under `key` (`email:<lowercase email>` or `id:<row id>`), read through
     * `read` on a miss.
     */
    async through(
      key: string,
      nowMs: number,
      read: () => Promise<Credentials | null>,
    ): Promise<Credentials | null> {
      const hit = byKey.get(key);
      if (hit && hit.until > nowMs) return hit.value;
      if (hit) byKey.delete(key);
      const started = generation;
      const value = await read();
      if (started !== generation) return value;
      if (byKey.size >= max) byKey.delete(byKey.keys().next().value!);
      byKey.set(key, { value, until: nowMs + ttlMs });
      return value;
    },

    /**
     * The user's app passwords, roles or email changed: read them again. Answers of 'no such
     * user' go too, as the change may be a new account's first password.
     */
    forgetUser(userId: string): void {
      generation += 1;
      for (const [key, entry] of byKey)
        if (entry.value === null || entry.value.userId === userId) byKey.delete(key);
    },

    /** Announcements may have been missed: trust nothing held. */
    clear(): void {
      generation += 1;
      byKey.clear();
    },

    get size(): number {
      return byKey.size;
    },
  };
}
