import type { Clock } from '../../../core/clock.ts';

/**
 * A short-lived cache of search answers (ADR 0011 "Answer cache"). Listeners' queries
 * repeat — the same few artists, titles and genres, typed by many people — and every search
 * costs PostgreSQL several milliseconds of CPU, while a repeat within seconds would return
 * the same rows. So the search is kept: an answer for `ttlMs` (at most `maxEntries`, least
 * recently used dropped first), concurrent identical searches share one query, and
 * `invalidate`, called before and after every write to songs (the songs module announces
 * them), drops the whole cache, so this process's own uploads, edits and deletions show at
 * once. What changes elsewhere (another process's writes, a renamed artist, play counts)
 * shows within `ttlMs`.
 */
export type SearchCacheOptions = { ttlMs: number; maxEntries: number; clock: Clock };

export type SearchCache = {
  /** `search` with its answers kept, keyed on every argument. */
  keep<A extends unknown[], T>(search: (...args: A) => Promise<T>): (...args: A) => Promise<T>;
  /** Drops every answer; one whose query began before this is not kept when it comes. */
  invalidate(): void;
};

type Entry = { expires: number; generation: number; value: Promise<unknown> };

export function createSearchCache(options: SearchCacheOptions): SearchCache {
  if (options.ttlMs <= 0) return { keep: (search) => search, invalidate: () => {} };
  const entries = new Map<string, Entry>();
  // Bumped before and after every write: an answer whose query started before a write
  // finished is never kept (its generation is stale by then).
  let generation = 0;
  // Each kept search's answers under its own prefix.
  let searches = 0;

  function lookup(key: string, call: () => Promise<unknown>): Promise<unknown> {
    const now = options.clock.now().getTime();
    const hit = entries.get(key);
    if (hit && hit.expires > now && hit.generation === generation) {
      // Least recently used goes first: a hit moves to the end of the Map's order.
      entries.delete(key);
      entries.set(key, hit);
      return hit.value;
    }
    if (hit) entries.delete(key);
    const started = generation;
    const value = call();
    const entry: Entry = { expires: now + options.ttlMs, generation: started, value };
    entries.set(key, entry);
    while (entries.size > options.maxEntries) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }
    value.then(
      () => {
        if (generation !== started && entries.get(key) === entry) entries.delete(key);
      },
      () => {
        // A failure is not an answer: the next search asks the database again.
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return value;
  }

  return {
    keep(search) {
      const prefix = `${searches++}\u0000`;
      return (...args) =>
        lookup(prefix + JSON.stringify(args), () => search(...args)) as ReturnType<typeof search>;
    },
    invalidate() {
      generation += 1;
      entries.clear();
    },
  };
}
