import type { Clock } from '../../../core/clock.ts';

/**
 * A short-lived cache of search answers (ADR 0011 "Answer cache"). Listeners' queries
 * repeat — the same few artists, titles and genres, typed by many people — and every search
 * costs PostgreSQL several milliseconds of CPU, while a repeat within seconds would return
 * the same rows. So the repository's search reads are wrapped: an answer is kept for `ttlMs`
 * (at most `maxEntries`, least recently used dropped first), concurrent identical searches
 * share one query, and every write through the same repository drops the whole cache, so
 * this process's own uploads, edits and deletions show at once. What changes elsewhere
 * (another process's writes, a renamed artist, play counts) shows within `ttlMs`.
 */
export type SearchCacheOptions = { ttlMs: number; maxEntries: number; clock: Clock };

type Entry = { expires: number; generation: number; value: Promise<unknown> };

/** Methods that only read: passed through untouched (or cached when listed in `cached`). */
type Options<R> = SearchCacheOptions & {
  cached: ReadonlyArray<keyof R & string>;
  reads: ReadonlyArray<keyof R & string>;
};

export function withSearchCache<R extends object>(repository: R, options: Options<R>): R {
  if (options.ttlMs <= 0) return repository;
  const entries = new Map<string, Entry>();
  // Bumped before and after every write: an answer whose query started before a write
  // finished is never kept (its generation is stale by then).
  let generation = 0;
  const cached = new Set<string>(options.cached);
  const reads = new Set<string>(options.reads);

  const invalidate = () => {
    generation += 1;
    entries.clear();
  };

  function lookup(name: string, args: unknown[], call: () => Promise<unknown>): Promise<unknown> {
    const key = `${name}\u0000${JSON.stringify(args)}`;
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

  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    if (typeof member !== 'function') {
      wrapped[name] = member;
      continue;
    }
    const fn = member as (...args: unknown[]) => Promise<unknown>;
    if (cached.has(name)) {
      wrapped[name] = (...args: unknown[]) => lookup(name, args, () => fn.apply(repository, args));
    } else if (reads.has(name)) {
      wrapped[name] = fn.bind(repository);
    } else {
      // Anything else may change songs: writes drop the cache before and after.
      wrapped[name] = async (...args: unknown[]) => {
        invalidate();
        try {
          return await fn.apply(repository, args);
        } finally {
          invalidate();
        }
      };
    }
  }
  return wrapped as R;
}
