import { describe, expect, it } from 'vitest';
import { createSearchCache } from './search-cache.ts';

function fakeRepository() {
  const calls: string[] = [];
  let rows = ['a'];
  let gate: Promise<void> | undefined;
  const repository = {
    async search(input: { query: string }) {
      calls.push(`search:${input.query}`);
      const answer = [...rows];
      if (gate) await gate;
      if (input.query === 'boom') throw new Error('database down');
      return answer;
    },
    async findById(id: string) {
      calls.push(`find:${id}`);
      return id;
    },
    async insert(row: string) {
      calls.push(`insert:${row}`);
      rows = [...rows, row];
    },
  };
  return {
    repository,
    calls,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

function clockAt(ms: number) {
  const clock = { t: ms, now: () => new Date(clock.t) };
  return clock;
}

/** The repository's search kept by a cache, and its insert as the songs module runs a write. */
function cachedOver(
  { repository }: ReturnType<typeof fakeRepository>,
  clock: { now(): Date },
  ttlMs = 10_000,
  maxEntries = 100,
) {
  const cache = createSearchCache({ ttlMs, maxEntries, clock });
  return {
    cache,
    search: cache.keep(repository.search),
    async insert(row: string) {
      cache.invalidate();
      try {
        await repository.insert(row);
      } finally {
        cache.invalidate();
      }
    },
  };
}

describe('createSearchCache', () => {
  it('answers a repeated search from the cache until the TTL passes', async () => {
    const fake = fakeRepository();
    const { calls } = fake;
    const clock = clockAt(0);
    const cached = cachedOver(fake, clock);
    expect(await cached.search({ query: 'x' })).toEqual(['a']);
    expect(await cached.search({ query: 'x' })).toEqual(['a']);
    expect(calls).toEqual(['search:x']);
    clock.t = 9_999;
    await cached.search({ query: 'x' });
    expect(calls).toEqual(['search:x']);
    clock.t = 10_000;
    await cached.search({ query: 'x' });
    expect(calls).toEqual(['search:x', 'search:x']);
  });

  it('keys on every argument', async () => {
    const fake = fakeRepository();
    const { calls } = fake;
    const cached = cachedOver(fake, clockAt(0));
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    expect(calls).toEqual(['search:x', 'search:y']);
  });

  it('drops every answer when invalidated around a write', async () => {
    const fake = fakeRepository();
    const { calls } = fake;
    const cached = cachedOver(fake, clockAt(0));
    await cached.search({ query: 'x' });
    await cached.insert('b');
    expect(await cached.search({ query: 'x' })).toEqual(['a', 'b']);
    expect(calls).toEqual(['search:x', 'insert:b', 'search:x']);
  });

  it('does not keep an answer whose query began before a write finished', async () => {
    const fake = fakeRepository();
    const { calls, hold } = fake;
    const cached = cachedOver(fake, clockAt(0));
    const release = hold();
    const stale = cached.search({ query: 'x' }); // reads ['a'], then waits
    await cached.insert('b');
    release();
    expect(await stale).toEqual(['a']);
    expect(await cached.search({ query: 'x' })).toEqual(['a', 'b']);
    expect(calls).toEqual(['search:x', 'insert:b', 'search:x']);
  });

  it('shares one query among concurrent identical searches', async () => {
    const fake = fakeRepository();
    const { calls, hold } = fake;
    const cached = cachedOver(fake, clockAt(0));
    const release = hold();
    const answers = Promise.all([1, 2, 3].map(() => cached.search({ query: 'x' })));
    release();
    expect(await answers).toEqual([['a'], ['a'], ['a']]);
    expect(calls).toEqual(['search:x']);
  });

  it('never keeps a failure', async () => {
    const fake = fakeRepository();
    const { calls } = fake;
    const cached = cachedOver(fake, clockAt(0));
    await expect(cached.search({ query: 'boom' })).rejects.toThrow('database down');
    await expect(cached.search({ query: 'boom' })).rejects.toThrow('database down');
    expect(calls).toEqual(['search:boom', 'search:boom']);
  });

  it('holds at most maxEntries answers, the least recently used dropped first', async () => {
    const fake = fakeRepository();
    const { calls } = fake;
    const cached = cachedOver(fake, clockAt(0), 10_000, 2);
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    await cached.search({ query: 'x' }); // x is now the most recent
    await cached.search({ query: 'z' }); // drops y
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    expect(calls).toEqual(['search:x', 'search:y', 'search:z', 'search:y']);
  });

  it('keeps each search apart, and with a TTL of 0 is the search itself', async () => {
    const fake = fakeRepository();
    const cache = createSearchCache({ ttlMs: 10_000, maxEntries: 100, clock: clockAt(0) });
    const search = cache.keep(fake.repository.search);
    const find = cache.keep(async (input: { query: string }) =>
      fake.repository.findById(input.query),
    );
    await search({ query: '1' });
    await find({ query: '1' });
    await find({ query: '1' });
    expect(fake.calls).toEqual(['search:1', 'find:1']);
    const off = createSearchCache({ ttlMs: 0, maxEntries: 100, clock: clockAt(0) });
    expect(off.keep(fake.repository.search)).toBe(fake.repository.search);
  });
});
