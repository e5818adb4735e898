import { describe, expect, it } from 'vitest';
import { createAdmission } from './search-admission.ts';
import { readsForSearch } from './search.module.ts';

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

describe('createAdmission', () => {
  it('lets in `limit` searches at once and the others in the order they came', async () => {
    const { repository, started, done } = heldRepository();
    const search = createAdmission({ limit: 2 }).admit(repository.searchForgivingTypos);
    const answers = ['a', 'b', 'c', 'd'].map((query) => search({ query }));
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
    const search = createAdmission({ limit: 1 }).admit(repository.searchForgivingTypos);
    const failed = search({ query: 'boom' });
    const next = search({ query: 'x' });
    await expect(failed).rejects.toThrow('database down');
    await settle();
    expect(started).toEqual(['boom', 'x']);
    done('x');
    expect(await next).toEqual(['x']);
  });

  it('shares its places among every search it admits, and leaves the rest alone', async () => {
    const { repository, started } = heldRepository();
    const admission = createAdmission({ limit: 1 });
    const search = admission.admit(repository.searchForgivingTypos);
    const find = admission.admit(async (input: { query: string }) => {
      started.push(`admitted find:${input.query}`);
      return [input.query];
    });
    void search({ query: 'a' }); // holds the only place
    const waiting = find({ query: '1' });
    await settle();
    expect(started).toEqual(['a']);
    // Not admitted: no place needed.
    expect(await repository.findById('2')).toBe('2');
    expect(started).toEqual(['a', 'find:2']);
    expect(await Promise.race([waiting, settle().then(() => 'still waiting')])).toBe(
      'still waiting',
    );
  });

  it('with a limit of 0 lets every search in at once', async () => {
    const { repository, started } = heldRepository();
    const search = createAdmission({ limit: 0 }).admit(repository.searchForgivingTypos);
    for (const query of ['a', 'b', 'c']) void search({ query });
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
  });
});

describe('readsForSearch (the search module wiring)', () => {
  const clock = { now: () => new Date(0) };

  it('answers a cached search while every place is taken, and queues a new one', async () => {
    const { repository, started, done } = heldRepository();
    const reads = readsForSearch(repository as never, { ttlMs: 10_000, limit: 1, clock });
    const search = (query: string) =>
      reads.searchSongs({ query, genre: null, sort: 'relevance', limit: 20 });
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
