import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SongDto } from '../../src/contracts/songs.contract.ts';
import { systemClock } from '../../src/core/clock.ts';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { openPostgres, type Database } from '../../src/server/db/client.ts';
import { jobScopedName } from '../../src/server/media/media-job.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import { TestClock, testEnv, type TestContext } from '../helpers/test-app.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';
import {
  makeUser,
  makeWav,
  rows,
  storedFiles,
  type TestUser,
  uploadSong,
} from './songs-helpers.ts';

/*
 * The job queue's last fault: two app instances, each with its own connection pool and its own
 * media worker, on ONE PostgreSQL database and one shared DATA_DIR (as two processes behind a
 * load balancer would run). Songs uploaded through one of them all end 'ready' with their
 * renditions and waveform; each song's job ran exactly once (one transcode run across both
 * instances, one attempt), both workers took some, and what is stored is exactly what the
 * rows name. Each instance's FFMPEG_PATH is its own wrapper that logs its transcode runs
 * (those with ebur128: upload checks pass through untouched), so a run is attributed to the
 * instance that made it.
 *
 * Both instances live in this process (two buildApps, two pools): the queue shares nothing
 * in memory between them, so to it they are two workers like any other.
 */

const onPostgres = dbKinds.includes('postgres');
if (!onPostgres) {
  // tests/helpers/global-setup.ts fails the run instead under CANTO_REQUIRE_POSTGRES=1 (CI).
  console.warn('media-two-workers.test.ts skipped: PostgreSQL is not reachable');
}

const work = path.join(tmpRoot, `media-two-workers-${process.pid}`);
/** While this file exists, transcode runs wait (they have announced themselves first). */
const hold = path.join(work, 'hold');
const runLog = (instance: string) => path.join(work, `runs-${instance}.log`);
const runsOf = (instance: string): string[] =>
  fs.existsSync(runLog(instance))
    ? fs.readFileSync(runLog(instance), 'utf8').trim().split('\n').filter(Boolean)
    : [];

function writeWrapper(instance: string): string {
  const file = path.join(work, `ffmpeg-${instance}.sh`);
  fs.writeFileSync(
    file,
    `#!/bin/sh
case "$*" in
  *ebur128*)
    echo "$*" >> '${runLog(instance)}'
    while [ -f '${hold}' ]; do sleep 0.05; done
    ;;
esac
exec '${ffmpegPackage.path}' "$@"
`,
    { mode: 0o755 },
  );
  return file;
}

async function waitFor<T>(probe: () => Promise<T> | T, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two media workers on PGlite', () => {
  it.skip("is not run: embedded PGlite is one process's single-connection database, so two app instances cannot share one", () => {});
});

describe.runIf(onPostgres)(
  'two app instances with their media workers on one PostgreSQL database',
  () => {
    let db: TestDatabase;
    let secondPool: Database;
    const instances: Array<{ name: 'a' | 'b' } & BuiltApp> = [];
    /** Instance a, as the songs helpers take it: uploads and reads go through it. */
    let a: TestContext;
    let artist: TestUser;

    beforeAll(async () => {
      fs.mkdirSync(work, { recursive: true });
      db = await createTestDatabase('postgres');
      secondPool = await openPostgres(db.url!, 10);
      for (const [name, database] of [
        ['a', db.database],
        ['b', secondPool],
      ] as const) {
        const env = testEnv(
          {
            FFMPEG_PATH: writeWrapper(name),
            // One job at a time per worker: while one holds a job, the other must take the next.
            MEDIA_WORKERS: '1',
            JOB_POLL_INTERVAL_MS: '100',
            // No sweep in the test's time: it is the job's naming that must leave nothing behind.
            MEDIA_SWEEP_AGE_SECONDS: '3600',
          },
          db.dataDir,
        );
        const built = await buildApp({ env, database, clock: systemClock, logger: false });
        await built.app.ready();
        instances.push({ name, ...built });
        if (name === 'a') a = { ...built, db, env, clock: new TestClock(), mail: [] };
      }
      artist = await makeUser(a, 'artist', 'Two Workers Artist');
    });
    afterAll(async () => {
      fs.rmSync(hold, { force: true });
      for (const { app } of instances) await app.close();
      await secondPool?.close().catch(() => {});
      await db?.drop();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it('six songs: each job runs exactly once, both workers take some, nothing orphaned', async () => {
      const upload = async (i: number) =>
        (await uploadSong(a, artist, { title: `Two Workers ${i}`, audio: makeWav(1 + i * 0.25) }))
          .id;

      // A backlog (as after a deploy): queued while no worker runs.
      const songIds: string[] = [];
      for (let i = 0; i < 4; i++) songIds.push(await upload(i));

      // Held at their first transcode, each worker (concurrency 1) has exactly one job and can
      // take no other, so the second job must go to the other worker: both take some, by
      // construction rather than by timing.
      fs.writeFileSync(hold, '');
      await Promise.all(instances.map(({ jobs }) => jobs.start()));
      await waitFor(
        () => runsOf('a').length === 1 && runsOf('b').length === 1,
        'one held transcode run in each instance',
      );
      await new Promise((r) => setTimeout(r, 300));
      expect([runsOf('a').length, runsOf('b').length]).toEqual([1, 1]);
      fs.rmSync(hold);

      // Two more while both workers run: announced by the upload's commit to both.
      for (let i = 4; i < 6; i++) songIds.push(await upload(i));

      const jobsOf = () =>
        rows<{ id: string; song_id: string; state: string; attempts: number }>(
          a,
          sql`select id::text as id, payload->>'songId' as song_id, state::text as state, attempts
            from jobs where name = 'songs.media' order by id`,
        );
      await waitFor(
        async () => (await jobsOf()).every((j) => j.state === 'done'),
        'every media job done',
        60_000,
      );

      // Every song ready with its three renditions, loudness and waveform, through either
      // instance (the URLs one signs, the other serves: one SECRET_KEY, one DATA_DIR).
      const [, b] = instances;
      for (const id of songIds) {
        const res = await a.app.inject({
          method: 'GET',
          url: `/api/songs/${id}`,
          headers: artist.headers,
        });
        const song = res.json() as SongDto;
        expect(song.status, song.title).toBe('ready');
        expect(song.renditions.map((r) => r.bitrate_kbps)).toEqual([96, 128, 160]);
        expect(song.loudness).not.toBeNull();
        expect(song.waveform_url).not.toBeNull();
        for (const url of [song.waveform_url!, ...song.renditions.map((r) => r.url)]) {
          const served = await b!.app.inject({ method: 'GET', url });
          expect(served.statusCode, url).toBe(200);
        }
        const bytes = song.renditions.map((r) => r.bytes);
        expect(bytes.every((n) => n > 0)).toBe(true);
      }

      // One job per song, each claimed once (attempts counts claims, a lost lease's re-run too).
      const jobs = await jobsOf();
      expect(jobs.map((j) => j.song_id).sort()).toEqual([...songIds].sort());
      expect(jobs.map((j) => [j.state, j.attempts])).toEqual(jobs.map(() => ['done', 1]));

      // One transcode run per job across both instances: each run reads its job's own input
      // (jobScopedName), so a run is matched to its job and the instance that ran it.
      const byInstance = { a: runsOf('a'), b: runsOf('b') };
      expect(byInstance.a.length + byInstance.b.length).toBe(songIds.length);
      const ranBy = new Map<string, string[]>();
      for (const job of jobs) {
        const input = `file:${path.join(db.dataDir, 'tmp', jobScopedName('songs.media', { id: job.id, itemId: job.song_id }, 'input', 'upload'))} `;
        for (const [name, runs] of Object.entries(byInstance))
          for (const run of runs)
            if (run.includes(input)) ranBy.set(job.id, [...(ranBy.get(job.id) ?? []), name]);
      }
      expect(jobs.map((j) => ranBy.get(j.id)?.length)).toEqual(jobs.map(() => 1));
      expect(byInstance.a.length).toBeGreaterThanOrEqual(1);
      expect(byInstance.b.length).toBeGreaterThanOrEqual(1);
      console.info(
        `media-two-workers: transcode runs by instance a: ${byInstance.a.length}, b: ${byInstance.b.length}`,
      );

      // What is stored is exactly what the rows name: every original, rendition and waveform,
      // nothing else, and no temp file.
      const named = await rows<{ key: string }>(
        a,
        sql`select file_key as key from songs where file_key is not null
          union all select waveform_key from songs where waveform_key is not null
          union all select file_key from song_renditions`,
      );
      expect(named).toHaveLength(songIds.length * 5);
      expect(storedFiles(db.dataDir)).toEqual(
        named.map((r) => path.join('media', ...r.key.split('/'))).sort(),
      );
    }, 120_000);
  },
);
