import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminAdDto } from '../../src/contracts/ads.contract.ts';
import { createAdMediaRepository } from '../../src/server/modules/ads/ads.repository.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { adParts, createAd, listAds, makeAdmin, nextAd, sendAd, setActive } from './ads-helpers.ts';
import { makeUser, makeWav, rows, storedFiles, type TestUser } from './songs-helpers.ts';

/*
 * An ad's audio is checked like a song's and goes through the one media job
 * (ADR 0014, 0023): Opus and AAC renditions and loudness in the music bucket, signed, handed
 * to listeners with the ad; no waveform is kept. New audio replaces the old and its outputs;
 * removed audio takes them along. The worker runs in the test's process.
 */

const work = path.join(tmpRoot, `ads-media-${process.pid}`);
let stereo: Buffer;

beforeAll(() => {
  fs.mkdirSync(work, { recursive: true });
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

const musicFiles = (ctx: TestContext) =>
  storedFiles(ctx.env.dataDir)
    .filter((f) => f.startsWith(path.join('media', 'music')))
    .map((f) => f.split(path.sep).slice(2).join('/'))
    .sort();
/** `music/<key>` of a signed or stored media URL. */
const keyOf = (url: string) => url.split('?')[0]!.slice('/media/'.length);

describe.each(dbKinds)('ad media on %s', (kind) => {
  const ctx = useTestApp(kind, {
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
    // A reconciler pass deletes any file no row names, however new.
    MEDIA_SWEEP_AGE_SECONDS: '0',
  });
  let admin: TestUser;
  let listener: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(ctx);
    listener = await makeUser(ctx, 'listener', 'Ad Media Listener');
    await ctx.jobs.start();
  });

  /** Waits (real time: the worker polls every 50 ms) until the ad leaves 'processing'. */
  async function settled(id: string, ms = 30_000): Promise<AdminAdDto> {
    const until = Date.now() + ms;
    for (;;) {
      const ad = (await listAds(ctx, admin)).find((a) => a.id === id)!;
      if (ad.status !== 'processing') return ad;
      if (Date.now() > until) throw new Error(`ad ${id} still processing after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('measures the audio, makes signed Opus and AAC renditions with loudness, keeps no waveform, and hands them out', async () => {
    const created = await createAd(
      ctx,
      admin,
      { title: 'Loud Ad', duration: '99' },
      { audio: stereo },
    );
    // The audio's length wins over a duration given.
    expect(created).toMatchObject({ status: 'processing', duration: 2, renditions: [] });
    expect(created.audio_url).toMatch(
      /^\/media\/music\/[0-9a-f-]{36}\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
    );

    const ad = await settled(created.id);
    expect(ad.status).toBe('ready');
    expect(ad.renditions.map((r) => [r.codec, r.bitrate_kbps, r.duration])).toEqual([
      ['opus', 96, 2],
      ['aac', 128, 2],
      ['opus', 160, 2],
    ]);
    expect(ad.loudness!.integrated_lufs).toBeCloseTo(-12.7, 0);
    expect(ad.loudness!.gain_db).toBeCloseTo(-14 - ad.loudness!.integrated_lufs, 2);
    // The original and three renditions; the job's waveform is deleted again (just after
    // the row shows 'ready').
    const stored = [created.audio_url!, ...ad.renditions.map((r) => r.url)].map(keyOf);
    await expect
      .poll(() => musicFiles(ctx))
      .toEqual(stored.map((k) => k.slice('music/'.length)).sort());

    const shown = (await nextAd(ctx, listener))!;
    expect(shown).toMatchObject({ id: ad.id, status: 'ready', duration: 2 });
    expect(shown.renditions.map((r) => r.bytes)).toEqual(ad.renditions.map((r) => r.bytes));
    for (const url of [shown.audio_url!, ...shown.renditions.map((r) => r.url)]) {
      expect(url).toMatch(
        /^\/media\/music\/[0-9a-f-]{36}\.(wav|webm|m4a)\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
      );
      expect((await ctx.app.inject({ url })).statusCode).toBe(200);
      expect((await ctx.app.inject({ url: url.split('?')[0]! })).statusCode).toBe(403);
    }

    // The reconciler knows ad_renditions: nothing of this ad is an orphan.
    ctx.clock.advance(60_000);
    await ctx.reconciler.runOnce();
    expect(musicFiles(ctx)).toEqual(stored.map((k) => k.slice('music/'.length)).sort());
    expect((await listAds(ctx, admin)).find((a) => a.id === ad.id)?.renditions).toHaveLength(3);
    await setActive(ctx, admin, ad.id, false);
  });

  it('new audio replaces the old and its renditions; removing audio takes its files and keeps the length', async () => {
    const first = await settled(
      (await createAd(ctx, admin, { title: 'Changing' }, { audio: stereo })).id,
    );
    const oldFiles = [first.audio_url!, ...first.renditions.map((r) => r.url)].map(keyOf);

    const res = await sendAd(ctx, admin, adParts({}, { audio: makeWav(1) }), first.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminAdDto>()).toMatchObject({
      status: 'processing',
      duration: 1,
      renditions: [],
    });
    const replaced = await settled(first.id);
    expect(replaced.status).toBe('ready');
    expect(replaced.renditions).toHaveLength(3);
    expect(replaced.renditions.every((r) => r.duration === 1)).toBe(true);
    const now = musicFiles(ctx);
    for (const key of oldFiles) expect(now).not.toContain(key.slice('music/'.length));
    const newFiles = [replaced.audio_url!, ...replaced.renditions.map((r) => r.url)].map(keyOf);
    for (const key of newFiles) expect(now).toContain(key.slice('music/'.length));

    const removed = await sendAd(ctx, admin, adParts({ remove_audio: 'true' }), first.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<AdminAdDto>()).toMatchObject({
      audio_url: null,
      status: 'ready',
      renditions: [],
      loudness: null,
      duration: 1,
    });
    for (const key of newFiles) expect(musicFiles(ctx)).not.toContain(key.slice('music/'.length));
    expect(
      await rows(ctx, sql`select 1 from ad_renditions where ad_id = ${first.id}`),
    ).toHaveLength(0);
    // Without audio, a duration given counts again.
    const timed = await sendAd(ctx, admin, adParts({ duration: '20' }), first.id);
    expect(timed.json<AdminAdDto>().duration).toBe(20);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
  });

  it('a job run again once its ad is ready finds nothing to do (no waveform to know its own outputs by)', async () => {
    const ad = await settled((await createAd(ctx, admin, { title: 'Once' }, { audio: stereo })).id);
    const key = keyOf(ad.audio_url!);
    const media = createAdMediaRepository(ctx.db.database.db);
    expect(await media.source(key)).toBeNull();
    await ctx.db.database.db.execute(
      sql`update ads set media_status = 'processing' where id = ${ad.id}`,
    );
    expect(await media.source(key)).toMatchObject({ id: ad.id, fileKey: key, waveformKey: null });
  });
});
