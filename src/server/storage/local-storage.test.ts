import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLocalStorage, type LocalStorage } from './local-storage.ts';
import { newKey } from './storage.ts';

/*
 * The memory cache of hot files (hot-files.ts) behind local storage's readSmall. Whether a
 * read came from memory shows by changing the file on disk behind the storage's back (same
 * size, same mtime, so the same ETag): memory still has the bytes it loaded.
 */
const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function setUp(memoryCacheBytes: number) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-local-storage-'));
  roots.push(root);
  return { root, storage: createLocalStorage(root, { memoryCacheBytes }) };
}

async function put(storage: LocalStorage, key: string, data: Buffer) {
  await storage.put('music', key, Readable.from([data]), {
    contentType: 'audio/mpeg',
    maxBytes: 1e8,
  });
}

/** Rewrites the file in place with other bytes of the same size and the same mtime. */
function changeBehindItsBack(root: string, key: string): Buffer {
  const file = path.join(root, 'music', key);
  const { mtime, size } = fs.statSync(file);
  const other = crypto.randomBytes(size);
  fs.writeFileSync(file, other);
  fs.utimesSync(file, mtime, mtime);
  return other;
}

const range = { start: 1000, end: 1000 + 65_535 };
const slice = (b: Buffer) => b.subarray(range.start, range.end + 1);

describe('local storage: hot files in memory', () => {
  it('loads a file on its second small read and then serves the same bytes from memory', async () => {
    const { root, storage } = setUp(10 * 1024 * 1024);
    const key = newKey('mp3');
    const data = crypto.randomBytes(300_000);
    await put(storage, key, data);
    expect((await storage.readSmall!('music', key, range)).equals(slice(data))).toBe(true);
    expect(storage.heldInMemory()).toBe(0);
    expect((await storage.readSmall!('music', key, range)).equals(slice(data))).toBe(true);
    await vi.waitFor(() => expect(storage.heldInMemory()).toBe(data.length));

    changeBehindItsBack(root, key);
    for (const r of [range, { start: 0, end: 0 }, { start: 299_990, end: 400_000 }]) {
      const got = await storage.readSmall!('music', key, r);
      expect(got.equals(data.subarray(r.start, Math.min(r.end, data.length - 1) + 1))).toBe(true);
    }
    await expect(
      storage.readSmall!('music', key, { start: 300_000, end: 300_001 }),
    ).rejects.toThrow(/not satisfiable/);
  });

  it('keeps within its budget, the least recently used file leaving first', async () => {
    const { root, storage } = setUp(500_000);
    const [a, b] = [newKey('mp3'), newKey('mp3')];
    const [dataA, dataB] = [crypto.randomBytes(300_000), crypto.randomBytes(250_000)];
    await put(storage, a, dataA);
    await put(storage, b, dataB);
    await storage.readSmall!('music', a, range);
    await storage.readSmall!('music', a, range);
    await vi.waitFor(() => expect(storage.heldInMemory()).toBe(300_000));
    await storage.readSmall!('music', b, range);
    await storage.readSmall!('music', b, range);
    // b in, a out: both would pass the budget.
    await vi.waitFor(() => expect(storage.heldInMemory()).toBe(250_000));
    changeBehindItsBack(root, b);
    expect((await storage.readSmall!('music', b, range)).equals(slice(dataB))).toBe(true);
    const now = changeBehindItsBack(root, a);
    expect((await storage.readSmall!('music', a, range)).equals(slice(now))).toBe(true);
  });

  it('drops a key deleted or written in this process', async () => {
    const { storage } = setUp(10 * 1024 * 1024);
    const key = newKey('mp3');
    await put(storage, key, crypto.randomBytes(100_000));
    await storage.readSmall!('music', key, range);
    await storage.readSmall!('music', key, range);
    await vi.waitFor(() => expect(storage.heldInMemory()).toBe(100_000));
    await storage.delete('music', key);
    expect(storage.heldInMemory()).toBe(0);
    // Same key, same size, most likely the same second: the same ETag, other bytes.
    const again = crypto.randomBytes(100_000);
    await put(storage, key, again);
    expect((await storage.readSmall!('music', key, range)).equals(slice(again))).toBe(true);
  });

  it('holds nothing with a budget of 0', async () => {
    const { root, storage } = setUp(0);
    const key = newKey('mp3');
    await put(storage, key, crypto.randomBytes(100_000));
    for (let i = 0; i < 3; i++) await storage.readSmall!('music', key, range);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storage.heldInMemory()).toBe(0);
    const now = changeBehindItsBack(root, key);
    expect((await storage.readSmall!('music', key, range)).equals(slice(now))).toBe(true);
  });
});
