import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/client.ts';
import { ensureAccountWithRole } from '../helpers/offline-accounts.ts';
import { createMediaReconciler } from '../../src/server/modules/media/media-reconciler.ts';
import { createMediaReferencesRepository } from '../../src/server/modules/media/media-references.repository.ts';
import type { CrashStep } from '../../src/server/storage/crash-point.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import { createS3Storage } from '../../src/server/storage/s3-storage.ts';
import { newKey, ownedKey, type Bucket, type Storage } from '../../src/server/storage/storage.ts';
import { startS3rver } from '../helpers/s3rver.ts';
import {
  killServerChildren,
  startServerChild,
  stopServerChild,
  type ServerChild,
} from '../helpers/server-child.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { createTestDatabase, dbKinds, type DbKind, type TestDatabase } from '../helpers/test-db.ts';
import {
  makePng,
  makeUser,
  makeWav,
  multipart,
  rows,
  type TestUser,
  uploadSong,
} from './songs-helpers.ts';

/*
 * The real server (src/server/host.ts, through the crash entry tests/helpers/server-entry.ts)
 * is SIGKILLed at each step of an upload (the crash point buildApp is given makes it kill
 * itself there) and restarted on the same DATA_DIR and database; after the start-up reconciliation no file is without its
 * row and no row without its file. Each restart is also the server that crashes at the next
 * step, so five crashes cost six starts per database.
 */

const ARTIST = { email: 'crash@canto.test', password: 'crash-pass-123', displayName: 'Crash' };

/** Steps in upload order, with what the killed process must have left (proof it got there). */
const STEPS: Array<{ step: CrashStep; left: Partial<Record<Area, number>> }> = [
  { step: 'upload:received', left: { tmp: 1 } },
  { step: 'storage:part-written', left: { tmp: 1, part: 1 } },
  { step: 'upload:audio-stored', left: { tmp: 1, music: 1 } },
  { step: 'upload:cover-stored', left: { tmp: 1, music: 1, 'cover-art': 1 } },
  { step: 'upload:inserted', left: { tmp: 1, music: 1, 'cover-art': 1 } },
];

type Area = 'tmp' | 'part' | 'music' | 'cover-art';

/** What lies on disk: temp files, unfinished puts, and stored keys per bucket. */
function onDisk(dataDir: string) {
  const names = (dir: string) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isFile())
      : [];
  const media = (bucket: string) => names(path.join(dataDir, 'media', bucket));
  const all = [...media('music'), ...media('cover-art')];
  return {
    tmp: names(path.join(dataDir, 'tmp')),
    part: all.filter((n) => n.endsWith('.part')),
    music: media('music').filter((n) => !n.endsWith('.part')),
    'cover-art': media('cover-art').filter((n) => !n.endsWith('.part')),
  };
}

function counts(dataDir: string): Record<Area, number> {
  const d = onDisk(dataDir);
  return {
    tmp: d.tmp.length,
    part: d.part.length,
    music: d.music.length,
    'cover-art': d['cover-art'].length,
  };
}

type Server = ServerChild;

/** The server on `db`, resolved once it listens and its start-up reconciliation has logged. */
function start(db: TestDatabase, crashAt?: CrashStep): Promise<Server> {
  return startServerChild(
    {
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.url ?? '',
      SECRET_KEY: 'crash-test-secret-key-crash-test-secret-key',
      // Fixed, so that a token from one start is still meant for the next (its aud).
      PUBLIC_URL: 'http://canto.test',
      DEMO: '0',
      CANTO_DEV: '1', // no web build here
      CATALOGUE_URL: 'http://127.0.0.1:9',
      // Everything a crash left is stale at once: no upload of this test is in flight then.
      MEDIA_SWEEP_AGE_SECONDS: '0',
    },
    {
      crashAt,
      readyWhen: (entry, line) => {
        if (entry.msg === 'media reconciled') return true;
        if (entry.msg?.includes('media reconcil')) throw new Error(`reconciliation: ${line}`);
        return false;
      },
      timeoutMs: 60_000,
    },
  );
}

async function stop(server: Server) {
  expect(await stopServerChild(server)).toBe(0);
}

/** An upload with a cover; the server may die under it, so the answer may never come. */
async function upload(url: string, token: string, wav: Buffer, png: Buffer) {
  const form = new FormData();
  form.append('title', 'Crash Test');
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'crash.wav');
  form.append('cover', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png');
  return fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }).catch((error: Error) => error);
}

const keyOf = (mediaUrl: string | null) => mediaUrl?.split('?')[0]!.split('/').pop();

type Listed = { file: string; cover: string | null; media?: string[] };

/**
 * Storage and rows agree: no temp or unfinished file, and stored keys = the rows' keys (the
 * original and, once its media job ran, the renditions and the waveform: ADR 0014).
 */
function expectAgreement(dataDir: string, rows: Listed[]) {
  const disk = onDisk(dataDir);
  expect(disk.tmp).toEqual([]);
  expect(disk.part).toEqual([]);
  expect(disk.music.sort()).toEqual(rows.flatMap((r) => [r.file, ...(r.media ?? [])]).sort());
  expect(disk['cover-art'].sort()).toEqual(rows.flatMap((r) => (r.cover ? [r.cover] : [])).sort());
}

type ListedSong = {
  file_url: string;
  cover_art_url: string | null;
  status: string;
  renditions: Array<{ url: string }>;
  waveform_url: string | null;
};

/**
 * The songs as the running server lists them, once their media jobs are done (the server's
 * worker runs them in the background, docs/decisions/0014).
 */
async function listed(server: Server, token: string): Promise<Listed[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${server.url}/api/songs?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status, `${await res.clone().text()}\n${server.output()}`).toBe(200);
    const { songs } = (await res.json()) as { songs: ListedSong[] };
    if (songs.some((s) => s.status === 'processing') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    return songs.map((s) => ({
      file: keyOf(s.file_url)!,
      cover: keyOf(s.cover_art_url) ?? null,
      media: [
        ...s.renditions.map((r) => keyOf(r.url)!),
        ...(s.waveform_url ? [keyOf(s.waveform_url)!] : []),
      ],
    }));
  }
}

afterAll(() => {
  killServerChildren();
});

describe.each(dbKinds)('a server killed during an upload, on %s', (kind: DbKind) => {
  let db: TestDatabase;
  let wav: Buffer;
  let png: Buffer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await ensureAccountWithRole(db.database, ARTIST, 'artist');
    // PGlite is one process at a time: the server child opens it from here on.
    if (kind === 'pglite') await db.database.close();
    wav = makeWav(0.5);
    png = await makePng(64, 64);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('leaves no file without its row and no row without its file, at every step', async () => {
    let token = '';
    let expectedRows = 0;
    for (const { step, left } of STEPS) {
      const server = await start(db, step);
      // The previous crash's leftovers are gone; what the rows say is what is stored.
      const rows = token ? await listed(server, token) : [];
      expect(rows).toHaveLength(expectedRows);
      expectAgreement(db.dataDir, rows);
      if (!token) {
        const res = await fetch(`${server.url}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: ARTIST.email, password: ARTIST.password }),
        });
        token = ((await res.json()) as { access_token: string }).access_token;
      }

      const before = counts(db.dataDir);
      const answer = await upload(server.url, token, wav, png);
      expect(answer, `${step}: the upload got an answer`).toBeInstanceOf(Error);
      expect(await server.exited).toBe('SIGKILL');
      const after = counts(db.dataDir);
      for (const area of ['tmp', 'part', 'music', 'cover-art'] as const) {
        expect(after[area] - before[area], `${step}: ${area}`).toBe(left[area] ?? 0);
      }
      if (step === 'upload:inserted') expectedRows++;
    }

    // The last restart cleans up after the last crash; uploads then work as ever.
    const server = await start(db);
    let rows = await listed(server, token);
    expect(rows).toHaveLength(expectedRows);
    expectAgreement(db.dataDir, rows);
    const ok = await upload(server.url, token, wav, png);
    expect(ok instanceof Response && ok.status).toBe(201);
    rows = await listed(server, token);
    expect(rows).toHaveLength(expectedRows + 1);
    await stop(server);

    // The rows themselves, read from the database, name exactly the stored files.
    const database =
      kind === 'pglite' ? await openPglite(path.join(db.dataDir, 'db')) : db.database;
    try {
      const result = (await database.db.execute(
        sql`select file_key, cover_art_key, waveform_key,
              array(select r.file_key from song_renditions r where r.song_id = songs.id) as renditions
            from songs order by created_at`,
      )) as unknown as {
        rows: Array<{
          file_key: string;
          cover_art_key: string | null;
          waveform_key: string | null;
          renditions: string[];
        }>;
      };
      expectAgreement(
        db.dataDir,
        result.rows.map((r) => ({
          file: r.file_key.replace('music/', ''),
          cover: r.cover_art_key?.replace('cover-art/', '') ?? null,
          media: [...r.renditions, ...(r.waveform_key ? [r.waveform_key] : [])].map((k) =>
            k.replace('music/', ''),
          ),
        })),
      );
      expect(result.rows).toHaveLength(expectedRows + 1);
    } finally {
      if (kind === 'pglite') await database.close();
    }
  }, 240_000);
});

/*
 * The reconciliation pass itself, in process, on both adapters (S3 through s3rver): what is
 * old enough goes, what is young or referenced stays, a row whose file is gone is repaired,
 * and a pass that would delete most of everything does nothing.
 */
const AGE_S = 600;

describe.each(
  dbKinds.flatMap((kind) => [
    [kind, 'local'],
    [kind, 's3'],
  ]) as Array<[DbKind, 'local' | 's3']>,
)('media reconciliation on %s, %s storage', (kind, storageKind) => {
  const env: Record<string, string> = { MEDIA_SWEEP_AGE_SECONDS: String(AGE_S) };
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  beforeAll(async () => {
    if (storageKind !== 's3') return;
    s3 = await startS3rver();
    Object.assign(env, {
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'canto',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
  const ctx = useTestApp(kind, env);
  /** The app's store, reached behind its back: another adapter on the same place. */
  let store: Storage;
  let wav: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    store =
      storageKind === 's3'
        ? createS3Storage({
            endpoint: s3!.endpoint,
            region: 'us-east-1',
            bucket: 'canto',
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
          })
        : createLocalStorage(path.join(ctx.env.dataDir, 'media'));
    wav = makeWav(0.3);
    png = await makePng(32, 32);
  });
  afterAll(async () => {
    await store?.close();
    await s3?.stop();
  });

  const plant = async (bucket: Bucket, ext: 'mp3' | 'webp' = 'mp3') => {
    const key = newKey(ext);
    const type = ext === 'mp3' ? 'audio/mpeg' : 'image/webp';
    await store.put(bucket, key, Readable.from([Buffer.from('orphan')]), {
      contentType: type,
      maxBytes: 100,
    });
    return key;
  };
  // On disk, not through `store`: the local adapter caches what it has seen for a minute.
  const exists = async (bucket: Bucket, key: string) =>
    storageKind === 'local'
      ? fs.existsSync(path.join(ctx.env.dataDir, 'media', bucket, key))
      : store.exists(bucket, key);
  /**
   * Moves the app's clock past the age: everything stored so far is old (and every access
   * token expired, hence a fresh user for each request after).
   */
  const age = () =>
    ctx.clock.advance(Math.max(0, Date.now() - ctx.clock.now().getTime()) + (AGE_S + 1) * 1000);

  /** A signed-in user (a fresh token at the clock's time). */
  const reader = () => makeUser(ctx).then((u) => u.headers);

  async function upload(
    artist: TestUser,
    title: string,
  ): Promise<{ id: string; file: string; cover: string }> {
    const song = await uploadSong(ctx, artist, { title, audio: wav, cover: png });
    return { id: song.id, file: keyOf(song.file_url)!, cover: keyOf(song.cover_art_url)! };
  }

  // First in this block: the clock has not moved yet, so what is planted now is young.
  it('removes unreferenced files and crash leftovers only once they are older than the age', async () => {
    const song = await upload(await makeUser(ctx, 'artist'), 'Referenced');
    const orphan = await plant('music');
    const temp = path.join(ctx.env.dataDir, 'tmp', `${crypto.randomUUID()}.upload`);
    fs.mkdirSync(path.dirname(temp), { recursive: true });
    fs.writeFileSync(temp, 'half an upload');
    const part = path.join(ctx.env.dataDir, 'media', 'music', `.${crypto.randomUUID()}.part`);
    if (storageKind === 'local') fs.writeFileSync(part, 'half a put');

    const young = await ctx.reconciler.runOnce();
    expect(young).toMatchObject({ tempFiles: 0, unfinished: 0, orphans: 0, repaired: 0 });
    expect(await exists('music', orphan)).toBe(true);
    expect(fs.existsSync(temp)).toBe(true);

    age();
    const old = await ctx.reconciler.runOnce();
    expect(old).toMatchObject({
      tempFiles: 1,
      unfinished: storageKind === 'local' ? 1 : 0,
      orphans: 1,
      repaired: 0,
      refused: [],
    });
    expect(await exists('music', orphan)).toBe(false);
    expect(fs.existsSync(temp)).toBe(false);
    expect(fs.existsSync(part)).toBe(false);
    // The song's files are referenced: old as they are, they stay, and so does the song.
    expect(await exists('music', song.file)).toBe(true);
    expect(await exists('cover-art', song.cover)).toBe(true);
    const get = await ctx.app.inject({ url: `/api/songs/${song.id}`, headers: await reader() });
    expect(get.statusCode).toBe(200);
  });

  it('keeps the files of an upload whose row lands while the pass runs', async () => {
    // The upload stored its audio (long enough ago to be old) and inserts its row just after
    // the pass read the rows: only the pass's last look before deleting can see it.
    const artist = await makeUser(ctx, 'artist');
    const key = await plant('music');
    age();
    const real = createMediaReferencesRepository(ctx.db.database.db);
    let inserted = false;
    const references: typeof real = {
      ...real,
      async *all(pageSize) {
        yield* real.all(pageSize);
        if (inserted) return;
        inserted = true;
        await ctx.db.database.db.execute(sql`
          insert into songs (artist_id, artist, title, file_url, file_key)
          values (${artist.userId}, 'Reconciled Artist', 'In flight',
                  ${`/media/music/${key}`}, ${`music/${key}`})`);
      },
    };
    const reconciler = createMediaReconciler({
      storage: store,
      references,
      tempDir: path.join(ctx.env.dataDir, 'tmp'),
      clock: ctx.clock,
      log: silentLog,
      ageSeconds: AGE_S,
      intervalSeconds: 0,
    });
    const report = await reconciler.runOnce();
    expect(inserted).toBe(true);
    expect(report).toMatchObject({ orphans: 0, repaired: 0 });
    expect(await exists('music', key)).toBe(true);
    const [song] = await rows<{ title: string }>(
      ctx,
      sql`select title from songs where file_key = ${`music/${key}`}`,
    );
    expect(song?.title).toBe('In flight');
  });

  it('removes a song whose audio is gone and clears a cover that is gone', async () => {
    const artist = await makeUser(ctx, 'artist');
    const noAudio = await upload(artist, 'Lost its audio');
    const noCover = await upload(artist, 'Lost its cover');
    await store.delete('music', noAudio.file);
    await store.delete('cover-art', noCover.cover);

    const report = await ctx.reconciler.runOnce();
    expect(report).toMatchObject({ repaired: 2, refused: [] });
    const headers = await reader();
    const gone = await ctx.app.inject({ url: `/api/songs/${noAudio.id}`, headers });
    expect(gone.statusCode).toBe(404);
    const kept = await ctx.app.inject({ url: `/api/songs/${noCover.id}`, headers });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ cover_art_url: null });
    expect(keyOf(kept.json().file_url)).toBe(noCover.file);
    const [row] = await rows<{ cover_art_key: string | null }>(
      ctx,
      sql`select cover_art_key from songs where id = ${noCover.id}`,
    );
    expect(row?.cover_art_key).toBeNull();
    // The deleted song's cover was still referenced when that pass read the rows: the next
    // pass finds it unreferenced and, once it is old, deletes it.
    age();
    await ctx.reconciler.runOnce();
    expect(await exists('cover-art', noAudio.cover)).toBe(false);
    expect(await exists('music', noCover.file)).toBe(true);
  });

  it("keeps a profile's avatar, removes that owner's stray ones, and clears an avatar that is gone", async () => {
    const user = await makeUser(ctx);
    const { headers, payload } = multipart([{ name: 'avatar', filename: 'me.png', data: png }]);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/me/profile/avatar',
      headers: { ...headers, ...user.headers },
      payload,
    });
    expect(put.statusCode, put.body).toBe(200);
    const current = (put.json() as { avatar_url: string }).avatar_url.replace(
      '/media/cover-art/',
      '',
    );
    expect(current.startsWith(`${user.userId}/`)).toBe(true);
    // A put whose profile update never ran, under the same owner's directory.
    const stray = ownedKey(user.userId, 1_000, 'webp');
    await store.put('cover-art', stray, Readable.from([Buffer.from('stray')]), {
      contentType: 'image/webp',
      maxBytes: 100,
    });
    age();
    const report = await ctx.reconciler.runOnce();
    expect(report).toMatchObject({ orphans: 1, repaired: 0, refused: [] });
    expect(await exists('cover-art', stray)).toBe(false);
    expect(await exists('cover-art', current)).toBe(true);

    await store.delete('cover-art', current);
    expect(await ctx.reconciler.runOnce()).toMatchObject({ repaired: 1 });
    const [row] = await rows<{ avatar_url: string | null }>(
      ctx,
      sql`select avatar_url from profiles where user_id = ${user.userId}`,
    );
    expect(row?.avatar_url).toBeNull();
  });

  it('deletes nothing when most stored files look unreferenced (the wrong database?)', async () => {
    const planted = [];
    for (let i = 0; i < 30; i++) planted.push(await plant('cover-art', 'webp'));
    age();
    const report = await ctx.reconciler.runOnce();
    expect(report.orphans).toBe(0);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]).toMatch(/referenced by no row/);
    for (const key of planted) expect(await exists('cover-art', key)).toBe(true);
    for (const key of planted) await store.delete('cover-art', key);
  });
});

const silentLog = { info() {}, debug() {}, warn() {}, error() {} };
