import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeDto } from '../../src/contracts/podcasts.contract.ts';
import { waveformDocument } from '../../src/contracts/songs.contract.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { createShow, showDetail, uploadEpisode } from './podcasts-helpers.ts';
import { makeUser, rows, storedFiles, type TestUser } from './songs-helpers.ts';

/*
 * An uploaded episode goes through the songs' media pipeline (the one job of
 * media/media-job.ts, ADR 0014/0018): Opus and AAC renditions, loudness and a waveform, in
 * the podcasts bucket, signed; a job that dead-letters leaves it 'failed' and playable from
 * its original. The worker runs in the test's process, as in media-pipeline.test.ts.
 */

const work = path.join(tmpRoot, `podcasts-media-${process.pid}`);
/** FFMPEG_PATH: the real ffmpeg, unless the control file `fail` makes transcodes fail. */
const wrapper = path.join(work, 'ffmpeg-faulty.sh');
const failFlag = path.join(work, 'fail');
let stereo: Buffer;

beforeAll(() => {
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh
case "$*" in
  *ebur128*) if [ -f '${failFlag}' ]; then echo 'Invalid data found when processing input' >&2; exit 1; fi ;;
esac
exec '${ffmpegPackage.path}' "$@"
`,
    { mode: 0o755 },
  );
  // 2 s of 44.1 kHz stereo: a 440 Hz sine peaking at -12 dBFS on both channels (-12.7 LUFS).
  const out = path.join(work, 'stereo.wav');
  execFileSync(ffmpegPackage.path, [
    ...['-v', 'error', '-nostdin', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:duration=2:sample_rate=44100'],
    ...['-af', 'volume=2,pan=stereo|c0=c0|c1=c0', '-c:a', 'pcm_s16le', '-y', out],
  ]);
  stereo = fs.readFileSync(out);
  return () => fs.rmSync(work, { recursive: true, force: true });
});

const podcastFiles = (ctx: TestContext) =>
  storedFiles(ctx.env.dataDir).filter((f) => f.startsWith(path.join('media', 'podcasts')));

describe.each(dbKinds)('podcast episode media on %s', (kind) => {
  const ctx = useTestApp(kind, {
    FFMPEG_PATH: wrapper,
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
    // A reconciler pass deletes any file no row names, however new.
    MEDIA_SWEEP_AGE_SECONDS: '0',
  });
  let maker: TestUser;
  let listener: TestUser;
  let showId: string;

  beforeAll(async () => {
    maker = await makeUser(ctx, 'artist', 'Media Maker');
    listener = await makeUser(ctx, 'listener', 'Media Listener');
    showId = (await createShow(ctx, maker, { title: 'Processed Show' })).id;
    await ctx.jobs.start();
  });

  /** Waits (real time: the worker polls every 50 ms) until the episode leaves 'processing'. */
  async function settled(id: string, ms = 30_000): Promise<EpisodeDto> {
    const until = Date.now() + ms;
    for (;;) {
      const episode = (await showDetail(ctx, listener, showId)).episodes.find((e) => e.id === id)!;
      if (episode.status !== 'processing') return episode;
      if (Date.now() > until) throw new Error(`episode ${id} still processing after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const jobOf = async (id: string) =>
    (
      await rows<{ state: string; attempts: number }>(
        ctx,
        sql`select state::text as state, attempts from jobs
            where name = 'podcasts.episode-media' and payload->>'episodeId' = ${id}`,
      )
    )[0];

  it('an episode gets Opus and AAC renditions, loudness and a waveform in the podcasts bucket, which a reconciler pass keeps', async () => {
    const uploaded = await uploadEpisode(ctx, maker, showId, { title: 'Processed', audio: stereo });
    expect(uploaded.status).toBe('processing');
    const episode = await settled(uploaded.id);
    expect(episode.status).toBe('ready');
    expect(episode.audio_url).toBe(uploaded.audio_url);
    expect(
      episode.renditions.map(({ codec, bitrate_kbps, mime, duration }) => ({
        codec,
        bitrate_kbps,
        mime,
        duration,
      })),
    ).toEqual([
      { codec: 'opus', bitrate_kbps: 96, mime: 'audio/webm; codecs=opus', duration: 2 },
      { codec: 'aac', bitrate_kbps: 128, mime: 'audio/mp4; codecs=mp4a.40.2', duration: 2 },
      { codec: 'opus', bitrate_kbps: 160, mime: 'audio/webm; codecs=opus', duration: 2 },
    ]);
    for (const r of episode.renditions) {
      expect(r.url).toMatch(
        /^\/media\/podcasts\/[0-9a-f-]{36}\.(webm|m4a)\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
      );
      const served = await ctx.app.inject({ url: r.url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.length).toBe(r.bytes);
      expect((await ctx.app.inject({ url: r.url.split('?')[0]! })).statusCode).toBe(403);
    }
    // Louder than -14 LUFS: a negative gain, as songs compute it.
    expect(episode.loudness!.integrated_lufs).toBeCloseTo(-12.7, 0);
    expect(episode.loudness!.true_peak_dbtp).toBeCloseTo(-12, 0);
    expect(episode.loudness!.gain_db).toBeCloseTo(-14 - episode.loudness!.integrated_lufs, 2);
    expect(episode.waveform_url).toMatch(/^\/media\/podcasts\/[0-9a-f-]{36}\.json\?e=\d+&s=/);
    const wave = await ctx.app.inject({ url: episode.waveform_url! });
    expect(wave.statusCode).toBe(200);
    const doc = waveformDocument.parse(wave.json());
    expect(doc.buckets).toBe(doc.peaks.length);
    expect(Math.min(...doc.peaks.slice(100, 900))).toBeGreaterThan(55);
    expect((await jobOf(uploaded.id))?.state).toBe('done');

    // The rows keep `podcasts/<key>`; original + 3 renditions + waveform are stored.
    const stored = await rows<{ file_key: string }>(
      ctx,
      sql`select file_key from podcast_episode_renditions where episode_id = ${uploaded.id}
          union all select waveform_key from podcast_episodes where id = ${uploaded.id}
          union all select audio_key from podcast_episodes where id = ${uploaded.id}`,
    );
    expect(stored).toHaveLength(5);
    const named = stored.map((r) => path.join('media', ...r.file_key.split('/'))).sort();
    expect(named.every((f) => f.startsWith(path.join('media', 'podcasts')))).toBe(true);
    expect(podcastFiles(ctx)).toEqual(expect.arrayContaining(named));

    // The reconciler knows the new columns: nothing of this episode is an orphan.
    // (Its files are young by the app's clock until it moves past them.)
    ctx.clock.advance(60_000);
    await ctx.reconciler.runOnce();
    expect(podcastFiles(ctx)).toEqual(expect.arrayContaining(named));
    const after = (await showDetail(ctx, listener, showId)).episodes.find(
      (e) => e.id === uploaded.id,
    );
    expect(after?.renditions.map((r) => r.bytes)).toEqual(episode.renditions.map((r) => r.bytes));
    expect(after?.waveform_url).not.toBeNull();
  });

  it('a job that dead-letters leaves the episode failed, playable from its original, with nothing else stored', async () => {
    const before = podcastFiles(ctx);
    fs.writeFileSync(failFlag, '');
    try {
      const uploaded = await uploadEpisode(ctx, maker, showId, { title: 'Unlucky', audio: stereo });
      // Five attempts: the app's clock moved past each backoff until the job is dead.
      const until = Date.now() + 30_000;
      while ((await jobOf(uploaded.id))?.state !== 'dead') {
        if (Date.now() > until)
          throw new Error(`job not dead: ${JSON.stringify(await jobOf(uploaded.id))}`);
        ctx.clock.advance(10_000);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await jobOf(uploaded.id)).toEqual({ state: 'dead', attempts: 5 });
      const failed = await settled(uploaded.id);
      expect(failed).toMatchObject({ status: 'failed', renditions: [], waveform_url: null });
      expect((await ctx.app.inject({ url: failed.audio_url })).statusCode).toBe(200);
      expect(podcastFiles(ctx).filter((f) => !before.includes(f))).toHaveLength(1);
      expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
    } finally {
      fs.rmSync(failFlag, { force: true });
    }
  });

  it("the show's creator retries a failed episode and it becomes ready; nobody else may, and only a failed one", async () => {
    const reprocess = (user: TestUser, id: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/episodes/${id}/reprocess`,
        headers: user.headers,
      });
    const jobsOf = async (id: string) =>
      (await rows(ctx, sql`select 1 from jobs where payload->>'episodeId' = ${id}`)).length;

    fs.writeFileSync(failFlag, '');
    let id: string;
    try {
      id = (await uploadEpisode(ctx, maker, showId, { title: 'Second Chance', audio: stereo })).id;
      // Anything but a failed episode is refused, and nothing is enqueued.
      const early = await reprocess(maker, id);
      expect(early.statusCode).toBe(409);
      expect(early.json().error.code).toBe('duplicate');
      expect(await jobsOf(id)).toBe(1);
      const until = Date.now() + 30_000;
      while ((await jobOf(id))?.state !== 'dead') {
        if (Date.now() > until) throw new Error(`job not dead: ${JSON.stringify(await jobOf(id))}`);
        ctx.clock.advance(10_000);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await settled(id)).status).toBe('failed');
    } finally {
      fs.rmSync(failFlag, { force: true });
    }

    const stranger = await makeUser(ctx, 'artist', 'Not The Maker');
    for (const user of [stranger, listener]) {
      const refused = await reprocess(user, id);
      expect(refused.statusCode).toBe(403);
    }
    const missing = await reprocess(maker, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect((await settled(id)).status).toBe('failed');

    const retried = await reprocess(maker, id);
    expect(retried.statusCode, retried.body).toBe(202);
    expect((retried.json() as EpisodeDto).status).toBe('processing');
    const ready = await settled(id);
    expect(ready.status).toBe('ready');
    expect(ready.renditions).toHaveLength(3);

    const jobs = await jobsOf(id);
    const again = await reprocess(maker, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'Only an episode whose processing failed can be processed again',
    );
    expect(await jobsOf(id)).toBe(jobs);
  });
});
