import { describe, expect, it } from 'vitest';
import { withSearchCache } from './search-cache.ts';

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

const options = (clock: { now(): Date }, ttlMs = 10_000, maxEntries = 100) => ({
  ttlMs,
  maxEntries,
  clock,
  cached: ['search'] as const,
  reads: ['findById'] as const,
});

describe('withSearchCache', () => {
  it('answers a repeated search from the cache until the TTL passes', async () => {
    const { repository, calls } = fakeRepository();
    const clock = clockAt(0);
    const cached = withSearchCache(repository, options(clock));
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
    const { repository, calls } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    expect(calls).toEqual(['search:x', 'search:y']);
  });

  it('drops every answer when a write goes through the repository', async () => {
    const { repository, calls } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    await cached.search({ query: 'x' });
    await cached.insert('b');
    expect(await cached.search({ query: 'x' })).toEqual(['a', 'b']);
    expect(calls).toEqual(['search:x', 'insert:b', 'search:x']);
  });

  it('does not keep an answer whose query began before a write finished', async () => {
    const { repository, calls, hold } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    const release = hold();
    const stale = cached.search({ query: 'x' }); // reads ['a'], then waits
    await cached.insert('b');
    release();
    expect(await stale).toEqual(['a']);
    expect(await cached.search({ query: 'x' })).toEqual(['a', 'b']);
    expect(calls).toEqual(['search:x', 'insert:b', 'search:x']);
  });

  it('shares one query among concurrent identical searches', async () => {
    const { repository, calls, hold } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    const release = hold();
    const answers = Promise.all([1, 2, 3].map(() => cached.search({ query: 'x' })));
    release();
    expect(await answers).toEqual([['a'], ['a'], ['a']]);
    expect(calls).toEqual(['search:x']);
  });

  it('never keeps a failure', async () => {
    const { repository, calls } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    await expect(cached.search({ query: 'boom' })).rejects.toThrow('database down');
    await expect(cached.search({ query: 'boom' })).rejects.toThrow('database down');
    expect(calls).toEqual(['search:boom', 'search:boom']);
  });

  it('holds at most maxEntries answers, the least recently used dropped first', async () => {
    const { repository, calls } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0), 10_000, 2));
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    await cached.search({ query: 'x' }); // x is now the most recent
    await cached.search({ query: 'z' }); // drops y
    await cached.search({ query: 'x' });
    await cached.search({ query: 'y' });
    expect(calls).toEqual(['search:x', 'search:y', 'search:z', 'search:y']);
  });

  it('passes reads through uncached, and is the repository itself when the TTL is 0', async () => {
    const { repository, calls } = fakeRepository();
    const cached = withSearchCache(repository, options(clockAt(0)));
    await cached.findById('1');
    await cached.findById('1');
    expect(calls).toEqual(['find:1', 'find:1']);
    expect(withSearchCache(repository, options(clockAt(0), 0))).toBe(repository);
  });
});
