import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeDto, PodcastShowDto } from '../../src/contracts/podcasts.contract.ts';
import { ErrorCode } from '../../src/core/errors.ts';
import { podcastMessages } from '../../src/core/validation/podcast.rules.ts';
import { createEpisodesRepository } from '../../src/server/modules/podcasts/episodes.repository.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { createShow, showDetail, uploadEpisode } from './podcasts-helpers.ts';
import { makePng, makeUser, makeWav, rows, storedFiles, type TestUser } from './songs-helpers.ts';

/*
 * Deleting episodes and shows (their creator only, ADR 0018 "Deletion"): the rows go in one
 * transaction (renditions and progress by cascade), then their files; anyone else is refused
 * and nothing changes. The worker is started half-way, so an episode deleted while its media
 * job was still queued proves the job then finds nothing and leaves nothing.
 */

const podcastFiles = (ctx: TestContext) =>
  storedFiles(ctx.env.dataDir).filter((f) => f.startsWith(path.join('media', 'podcasts')));

describe.each(dbKinds)('podcast deletion on %s', (kind) => {
  const ctx = useTestApp(kind, { JOB_POLL_INTERVAL_MS: '50', MEDIA_WORKERS: '1' });
  let maker: TestUser;
  let other: TestUser;
  let listener: TestUser;
  let show: PodcastShowDto;
  let kept: EpisodeDto;

  beforeAll(async () => {
    maker = await makeUser(ctx, 'artist', 'Delete Maker');
    other = await makeUser(ctx, 'artist', 'Delete Other');
    listener = await makeUser(ctx, 'listener', 'Delete Listener');
    show = await createShow(ctx, maker, { title: 'Doomed Show' }, await makePng(120, 90));
    kept = await uploadEpisode(ctx, maker, show.id, { title: 'Kept Episode', episode_number: '1' });
  });

  const del = (user: TestUser | null, url: string) =>
    ctx.app.inject({ method: 'DELETE', url, headers: user?.headers ?? {} });
  const fileOf = (url: string) =>
    path.join(ctx.env.dataDir, url.split('?')[0]!.replace('/media/', 'media/'));
  const count = async (query: ReturnType<typeof sql>) =>
    (await rows<{ n: number }>(ctx, query))[0]!.n;
  /** Every row a delete could remove, and every stored file. */
  const state = async () => ({
    shows: await count(sql`select count(*)::int as n from podcasts`),
    episodes: await count(sql`select count(*)::int as n from podcast_episodes`),
    renditions: await count(sql`select count(*)::int as n from podcast_episode_renditions`),
    progress: await count(sql`select count(*)::int as n from episode_progress`),
    files: storedFiles(ctx.env.dataDir),
  });
  const saveProgress = async (episodeId: string) => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/me/episode-progress/${episodeId}`,
      headers: listener.headers,
      payload: { position: 0.5 },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const feed = async (podcastId: string) =>
    ctx.app.inject({ url: `/api/podcasts/${podcastId}/feed.xml` });
  const jobOf = async (episodeId: string) =>
    (
      await rows<{ state: string }>(
        ctx,
        sql`select state::text as state from jobs
            where name = 'podcasts.episode-media' and payload->>'episodeId' = ${episodeId}`,
      )
    )[0];
  /** Waits (real time: the worker polls every 50 ms) until the episode leaves 'processing'. */
  async function settled(podcastId: string, id: string, ms = 30_000): Promise<EpisodeDto> {
    const until = Date.now() + ms;
    for (;;) {
      const episode = (await showDetail(ctx, maker, podcastId)).episodes.find((e) => e.id === id)!;
      if (episode.status !== 'processing') return episode;
      if (Date.now() > until) throw new Error(`episode ${id} still processing after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("refuses anyone but the show's creator and changes nothing; unknown ids 404, malformed 400", async () => {
    await saveProgress(kept.id);
    const before = await state();
    expect(fs.existsSync(fileOf(kept.audio_url))).toBe(true);

    for (const [user, status] of [
      [other, 403],
      [listener, 403],
      [null, 401],
    ] as const) {
      const episode = await del(user, `/api/episodes/${kept.id}`);
      expect(episode.statusCode, episode.body).toBe(status);
      const podcast = await del(user, `/api/podcasts/${show.id}`);
      expect(podcast.statusCode, podcast.body).toBe(status);
    }
    const refused = await del(other, `/api/episodes/${kept.id}`);
    expect(refused.json().error).toMatchObject({
      code: ErrorCode.forbidden,
      message: podcastMessages.notCreator,
    });

    const unknown = crypto.randomUUID();
    const noEpisode = await del(maker, `/api/episodes/${unknown}`);
    expect(noEpisode.statusCode).toBe(404);
    expect(noEpisode.json().error.message).toBe(podcastMessages.episodeNotFound);
    const noShow = await del(maker, `/api/podcasts/${unknown}`);
    expect(noShow.statusCode).toBe(404);
    expect(noShow.json().error.message).toBe(podcastMessages.podcastNotFound);
    expect((await del(maker, '/api/episodes/not-a-uuid')).statusCode).toBe(400);
    expect((await del(maker, '/api/podcasts/not-a-uuid')).statusCode).toBe(400);

    expect(await state()).toEqual(before);
    expect(fs.existsSync(fileOf(kept.audio_url))).toBe(true);
    expect((await showDetail(ctx, listener, show.id)).episodes.map((e) => e.id)).toEqual([kept.id]);
  });

  it('the creator deletes an episode (204): gone from the show, its feed, its progress and storage; its queued job leaves nothing', async () => {
    const doomed = await uploadEpisode(ctx, maker, show.id, {
      title: 'Doomed Episode',
      episode_number: '2',
    });
    await saveProgress(doomed.id);
    // Its WAV is not in the feed before its AAC rendition exists; the processed case below
    // proves a deleted episode leaves the feed.
    expect((await showDetail(ctx, listener, show.id)).episodes.map((e) => e.id)).toContain(
      doomed.id,
    );
    expect(fs.existsSync(fileOf(doomed.audio_url))).toBe(true);
    expect((await jobOf(doomed.id))?.state).toBe('queued');

    const res = await del(maker, `/api/episodes/${doomed.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    const detail = await showDetail(ctx, listener, show.id);
    expect(detail.episodes.map((e) => e.id)).toEqual([kept.id]);
    expect(detail.podcast.episode_count).toBe(1);
    expect((await feed(show.id)).body).not.toContain('Doomed Episode');
    expect(fs.existsSync(fileOf(doomed.audio_url))).toBe(false);
    expect(fs.existsSync(fileOf(kept.audio_url))).toBe(true);
    expect(
      await count(
        sql`select count(*)::int as n from episode_progress where episode_id = ${doomed.id}`,
      ),
    ).toBe(0);
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: `/api/me/episode-progress/${doomed.id}`,
          headers: listener.headers,
          payload: { position: 1 },
        })
      ).statusCode,
    ).toBe(404);
    expect((await del(maker, `/api/episodes/${doomed.id}`)).statusCode).toBe(404);

    // The job queued with it runs now: it finds no episode, ends done and stores nothing.
    await ctx.jobs.start();
    await settled(show.id, kept.id);
    const until = Date.now() + 15_000;
    while ((await jobOf(doomed.id))?.state !== 'done' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect((await jobOf(doomed.id))?.state).toBe('done');
    expect(podcastFiles(ctx).some((f) => f.includes(path.basename(doomed.audio_url)))).toBe(false);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
  });

  it('deleting a processed episode deletes its original, every rendition and the waveform', async () => {
    const before = podcastFiles(ctx);
    const uploaded = await uploadEpisode(ctx, maker, show.id, {
      title: 'Processed Then Deleted',
      audio: makeWav(2),
    });
    const episode = await settled(show.id, uploaded.id);
    expect(episode.status).toBe('ready');
    const added = podcastFiles(ctx).filter((f) => !before.includes(f));
    // original + 3 renditions + waveform
    expect(added.map((f) => path.extname(f)).sort()).toEqual([
      '.json',
      '.m4a',
      '.wav',
      '.webm',
      '.webm',
    ]);

    expect((await feed(show.id)).body).toContain('Processed Then Deleted');

    const res = await del(maker, `/api/episodes/${uploaded.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(podcastFiles(ctx)).toEqual(before);
    const xml = (await feed(show.id)).body;
    expect(xml).not.toContain('Processed Then Deleted');
    expect(xml).toContain('Kept Episode');
    expect(
      await count(
        sql`select count(*)::int as n from podcast_episode_renditions where episode_id = ${uploaded.id}`,
      ),
    ).toBe(0);
  });

  it("the creator deletes a show (204): its episodes, their files and its cover go; another creator's show stays", async () => {
    const theirs = await createShow(ctx, other, { title: 'Their Show' });
    const theirEpisode = await uploadEpisode(ctx, other, theirs.id, { title: 'Their Episode' });
    await settled(theirs.id, theirEpisode.id);
    const processed = await settled(show.id, kept.id);
    expect(processed.status).toBe('ready');
    await saveProgress(kept.id);
    const second = await uploadEpisode(ctx, maker, show.id, { title: 'Second Of Doomed Show' });
    await settled(show.id, second.id);

    const showFiles = [
      show.cover_art_url!,
      processed.audio_url,
      processed.waveform_url!,
      ...processed.renditions.map((r) => r.url),
      second.audio_url,
    ].map(fileOf);
    for (const f of showFiles) expect(fs.existsSync(f), f).toBe(true);
    const theirFiles = podcastFiles(ctx).filter((f) =>
      f.includes(path.basename(theirEpisode.audio_url.split('?')[0]!)),
    );
    expect(theirFiles).toHaveLength(1);

    const res = await del(maker, `/api/podcasts/${show.id}`);
    expect(res.statusCode, res.body).toBe(204);

    const gone = await ctx.app.inject({ url: `/api/podcasts/${show.id}`, headers: maker.headers });
    expect(gone.statusCode).toBe(404);
    expect((await feed(show.id)).statusCode).toBe(404);
    const list = await ctx.app.inject({ url: '/api/podcasts', headers: listener.headers });
    expect(list.json().items.map((p: PodcastShowDto) => p.id)).toEqual([theirs.id]);
    for (const f of showFiles) expect(fs.existsSync(f), f).toBe(false);
    expect(
      await count(
        sql`select count(*)::int as n from podcast_episodes where podcast_id = ${show.id}`,
      ),
    ).toBe(0);
    // What is left is exactly the other show's episode: its original, renditions, waveform.
    const left = await state();
    expect(left).toMatchObject({ shows: 1, episodes: 1, renditions: 3, progress: 0 });
    expect(podcastFiles(ctx)).toHaveLength(5);
    expect(fs.existsSync(fileOf(theirEpisode.audio_url))).toBe(true);
    expect((await showDetail(ctx, other, theirs.id)).episodes.map((e) => e.id)).toEqual([
      theirEpisode.id,
    ]);
    expect((await del(maker, `/api/podcasts/${show.id}`)).statusCode).toBe(404);
  });
  it('an episode whose show was deleted while it uploaded is not saved, and nothing runs with it', async () => {
    // The race between the upload's owner check and its INSERT, at the repository: the
    // foreign key refuses the row, and the callback (job, notices) never runs.
    const repository = createEpisodesRepository(ctx.db.database.db);
    let ran = false;
    const row = await repository.insert(
      {
        podcastId: crypto.randomUUID(),
        title: 'Orphan',
        description: null,
        audioUrl: `/media/podcasts/${crypto.randomUUID()}.wav`,
        audioKey: null,
        audioBytes: 1,
        audioMime: 'audio/wav',
        durationMs: 1000,
        episodeNumber: 1,
        mediaStatus: 'processing',
      },
      async () => {
        ran = true;
      },
    );
    expect(row).toBeNull();
    expect(ran).toBe(false);
    expect(
      await count(sql`select count(*)::int as n from podcast_episodes where title = 'Orphan'`),
    ).toBe(0);
  });
});
