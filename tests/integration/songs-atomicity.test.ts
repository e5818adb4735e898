import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import type { Storage } from '../../src/server/storage/storage.ts';
import { createTestDatabase, dbKinds } from '../helpers/test-db.ts';
import { TestClock, testEnv, type TestContext } from '../helpers/test-app.ts';
import {
  makePng,
  makeUser,
  makeWav,
  multipart,
  rows,
  storedFiles,
  type TestUser,
} from './songs-helpers.ts';

// All or nothing: a failure after a file was stored must delete it again.
describe.each(dbKinds)('song upload atomicity on %s', (kind) => {
  const ctx = {} as TestContext;
  const failures = { coverPut: false };
  let artist: TestUser;

  beforeAll(async () => {
    ctx.db = await createTestDatabase(kind);
    ctx.env = testEnv({}, ctx.db.dataDir);
    const local = createLocalStorage(path.join(ctx.db.dataDir, 'media'));
    // The real local store, with a switch to make the second write (the cover) fail.
    const storage: Storage = {
      ...local,
      async put(bucket, key, source, options) {
        if (bucket === 'cover-art' && failures.coverPut) {
          source.resume();
          throw new Error('simulated storage outage');
        }
        return local.put(bucket, key, source, options);
      },
    };
    Object.assign(
      ctx,
      await buildApp({
        env: ctx.env,
        database: ctx.db.database,
        clock: new TestClock(),
        logger: false,
        storage,
      }),
    );
    await ctx.app.ready();
    artist = await makeUser(ctx, 'artist', 'Atomic Artist');
    // A row the database refuses after both files are stored: the insert itself fails.
    await ctx.db.database.db.execute(sql`
      create function refuse_doomed() returns trigger language plpgsql as $$
      begin
        if new.title = 'doomed' then raise exception 'refused by test trigger'; end if;
        return new;
      end $$`);
    await ctx.db.database.db.execute(
      sql`create trigger refuse_doomed before insert on songs for each row execute function refuse_doomed()`,
    );
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.db?.drop();
  });

  const upload = async (title: string) => {
    const { headers, payload } = multipart([
      { name: 'title', value: title },
      { name: 'file', filename: 'a.wav', data: makeWav(1) },
      { name: 'cover', filename: 'c.png', data: await makePng(100, 100) },
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
  };
  const count = async () => (await rows(ctx, sql`select 1 from songs`)).length;

  it('deletes the stored audio when storing the cover fails', async () => {
    failures.coverPut = true;
    const res = await upload('cover fails');
    failures.coverPut = false;
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Internal server error');
    expect(await count()).toBe(0);
    expect(storedFiles(ctx.env.dataDir)).toEqual([]);
  });

  it('deletes both stored files when the insert fails, and sends no notification', async () => {
    const fan = await makeUser(ctx);
    await ctx.db.database.db.execute(
      sql`insert into user_follows (follower_id, following_id) values (${fan.userId}, ${artist.userId})`,
    );
    const res = await upload('doomed');
    expect(res.statusCode).toBe(500);
    expect(await count()).toBe(0);
    expect(storedFiles(ctx.env.dataDir)).toEqual([]);
    expect(await rows(ctx, sql`select 1 from notifications`)).toEqual([]);
  });

  it('still stores a good upload afterwards', async () => {
    const res = await upload('fine');
    expect(res.statusCode, res.body).toBe(201);
    expect(storedFiles(ctx.env.dataDir)).toHaveLength(2);
  });
});
