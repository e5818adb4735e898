import { describe, expect, it } from 'vitest';
import { withAdmission } from './search-admission.ts';
import { readsForSearch } from './songs.module.ts';
import type { SongsRepository } from './songs.repository.ts';

/** A repository whose searches each wait until the test lets that query finish. */
function heldRepository() {
  const started: string[] = [];
  const finish = new Map<string, (rows: string[]) => void>();
  const repository = {
    searchForgivingTypos(input: { query: string }): Promise<string[]> {
      started.push(input.query);
      if (input.query === 'boom') return Promise.reject(new Error('database down'));
      return new Promise((resolve) => finish.set(input.query, resolve));
    },
    async findById(id: string) {
      started.push(`find:${id}`);
      return id;
    },
  };
  const done = (query: string) => finish.get(query)!([query]);
  return { repository, started, done };
}

/** Lets every promise that is ready run its continuations. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('withAdmission', () => {
  it('lets in `limit` searches at once and the others in the order they came', async () => {
    const { repository, started, done } = heldRepository();
    const admitted = withAdmission(repository, { limit: 2, methods: ['searchForgivingTypos'] });
    const answers = ['a', 'b', 'c', 'd'].map((query) => admitted.searchForgivingTypos({ query }));
    await settle();
    expect(started).toEqual(['a', 'b']);
    done('b');
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    done('a');
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    done('c');
    done('d');
    expect(await Promise.all(answers)).toEqual([['a'], ['b'], ['c'], ['d']]);
  });

  it('gives the place back when a search fails', async () => {
    const { repository, started, done } = heldRepository();
    const admitted = withAdmission(repository, { limit: 1, methods: ['searchForgivingTypos'] });
    const failed = admitted.searchForgivingTypos({ query: 'boom' });
    const next = admitted.searchForgivingTypos({ query: 'x' });
    await expect(failed).rejects.toThrow('database down');
    await settle();
    expect(started).toEqual(['boom', 'x']);
    done('x');
    expect(await next).toEqual(['x']);
  });

  it('lets other methods through without waiting', async () => {
    const { repository, started } = heldRepository();
    const admitted = withAdmission(repository, { limit: 1, methods: ['searchForgivingTypos'] });
    void admitted.searchForgivingTypos({ query: 'a' }); // holds the only place
    await settle();
    expect(started).toEqual(['a']);
    expect(await admitted.findById('1')).toBe('1');
    expect(started).toEqual(['a', 'find:1']);
  });

  it('with a limit of 0 lets every search in at once', async () => {
    const { repository, started } = heldRepository();
    const admitted = withAdmission(repository, { limit: 0, methods: ['searchForgivingTypos'] });
    for (const query of ['a', 'b', 'c']) void admitted.searchForgivingTypos({ query });
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
  });
});

describe('readsForSearch (the songs module wiring)', () => {
  const clock = { now: () => new Date(0) };

  it('answers a cached search while every place is taken, and queues a new one', async () => {
    const { repository, started, done } = heldRepository();
    const reads = readsForSearch(repository as unknown as SongsRepository, {
      ttlMs: 10_000,
      limit: 1,
      clock,
    });
    const search = (query: string) =>
      reads.searchForgivingTypos({ query, genre: null, sort: 'relevance', limit: 20 });
    const first = search('kept');
    await settle();
    done('kept');
    await first;
    const holding = search('slow'); // takes the only place
    const waiting = search('new');
    await settle();
    expect(started).toEqual(['kept', 'slow']);
    // A repeat is the cache's answer: it neither waits for the place nor reaches the database.
    expect(await search('kept')).toEqual(['kept']);
    expect(started).toEqual(['kept', 'slow']);
    done('slow');
    await settle();
    expect(started).toEqual(['kept', 'slow', 'new']);
    done('new');
    expect(await Promise.all([holding, waiting])).toEqual([['slow'], ['new']]);
  });
});
