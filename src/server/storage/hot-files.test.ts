import { describe, expect, it } from 'vitest';
import { HotFiles } from './hot-files.ts';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

/** Reads `file` twice and completes the load that asks for, as local storage does. */
function load(hot: HotFiles, file: string, data: Buffer, etag = '"e"') {
  hot.wanted(file, data.length);
  const token = hot.wanted(file, data.length);
  expect(token).toBeDefined();
  hot.loaded(file, token!, etag, data);
}

describe('HotFiles', () => {
  it('wants a file on its second small read, once, and holds it for its ETag', () => {
    const hot = new HotFiles(100);
    expect(hot.wanted('a', 10)).toBeUndefined();
    const token = hot.wanted('a', 10);
    expect(token).toBeDefined();
    expect(hot.wanted('a', 10)).toBeUndefined(); // loading
    hot.loaded('a', token!, '"1"', bytes(10));
    expect(hot.get('a', '"1"')?.length).toBe(10);
    expect(hot.get('a', '"2"')).toBeUndefined();
    expect(hot.wanted('a', 10)).toBeUndefined(); // held
    expect(hot.bytes).toBe(10);
  });

  it('keeps within its budget, dropping the least recently used', () => {
    const hot = new HotFiles(25);
    load(hot, 'a', bytes(10));
    load(hot, 'b', bytes(10));
    hot.get('a', '"e"'); // a is now the most recently used
    load(hot, 'c', bytes(10));
    expect(hot.bytes).toBe(20);
    expect(hot.get('b', '"e"')).toBeUndefined();
    expect(hot.get('a', '"e"')).toBeDefined();
    expect(hot.get('c', '"e"')).toBeDefined();
  });

  it('never wants a file larger than its cap or its budget', () => {
    expect(new HotFiles(100, 50).maxFileBytes).toBe(50);
    const hot = new HotFiles(30, 50);
    hot.wanted('big', 31);
    expect(hot.wanted('big', 31)).toBeUndefined();
  });

  it('forgets a dropped file and voids its load in flight', () => {
    const hot = new HotFiles(100);
    load(hot, 'a', bytes(10));
    hot.drop('a');
    expect(hot.get('a', '"e"')).toBeUndefined();
    expect(hot.bytes).toBe(0);
    hot.wanted('b', 10);
    const token = hot.wanted('b', 10)!;
    hot.drop('b');
    hot.loaded('b', token, '"e"', bytes(10));
    expect(hot.get('b', '"e"')).toBeUndefined();
    expect(hot.bytes).toBe(0);
  });

  it('is off with a budget of 0', () => {
    const hot = new HotFiles(0);
    expect(hot.enabled).toBe(false);
    hot.wanted('a', 1);
    expect(hot.wanted('a', 1)).toBeUndefined();
  });

  it('remembers a bounded number of files read once', () => {
    const hot = new HotFiles(100, 50, 2);
    hot.wanted('a', 1);
    hot.wanted('b', 1);
    hot.wanted('c', 1); // a is forgotten
    expect(hot.wanted('a', 1)).toBeUndefined();
    expect(hot.wanted('c', 1)).toBeDefined();
  });
});
