import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  EpisodeProgressDto,
  PodcastList,
  PodcastShowDto,
} from '../../src/contracts/podcasts.contract.ts';
import { podcastMessages } from '../../src/core/validation/podcast.rules.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  createShow,
  sendEpisode,
  sendShow,
  showDetail,
  uploadEpisode,
} from './podcasts-helpers.ts';
import {
  lazyBytes,
  makePng,
  makeUser,
  makeWav,
  rows,
  storedFiles,
  type Part,
  type TestUser,
} from './songs-helpers.ts';

/*
 * Podcasts on the server (docs/decisions/0018) and their bad input: shows (list, own, detail,
 * create, edit), episode upload (spec §5 rules, content-checked like songs, stored with its media
 * job in one transaction), listening progress. The media job itself runs in podcasts-media.test.ts;
 * no worker runs here.
 */

const MB = 1024 * 1024;
const SIGNED_EPISODE_AUDIO =
  /^\/media\/podcasts\/[0-9a-f-]{36}\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/;
const COVER = /^\/media\/cover-art\/([0-9a-f-]{36}\.webp)$/;

describe.each(dbKinds)('podcasts on %s', (kind) => {
  const ctx = useTestApp(kind);
  let maker: TestUser;
  let other: TestUser;
  let listener: TestUser;
  let png: Buffer;
  let wav: Buffer;

  beforeAll(async () => {
    maker = await makeUser(ctx, 'artist', 'Show Maker');
    other = await makeUser(ctx, 'artist', 'Other Maker');
    listener = await makeUser(ctx, 'listener', 'Podcast Listener');
    png = await makePng(120, 90);
    wav = makeWav(1);
  });

  const count = async (table: 'podcasts' | 'podcast_episodes' | 'jobs') =>
    (
      await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ${sql.identifier(table)}`)
    )[0]!.n;
  /** Every table a refused request could write, and every stored or temp file. */
  const state = async () => ({
    shows: await count('podcasts'),
    episodes: await count('podcast_episodes'),
    jobs: await count('jobs'),
    files: storedFiles(ctx.env.dataDir),
  });
  /** Runs a request that must fail with `status` and `message` and proves it wrote nothing. */
  async function expectRefused(
    request: () => Promise<{ statusCode: number; body: string; json: <T = any>() => T }>,
    status: number,
    message: string,
  ) {
    const before = await state();
    const res = await request();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    expect(await state()).toEqual(before);
    return res;
  }
  const list = async (url: string, user: TestUser) => {
    const res = await ctx.app.inject({ url, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PodcastList>().items;
  };
  const put = (id: string, body: unknown, user: TestUser | null = listener) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/me/episode-progress/${id}`,
      headers: user?.headers ?? {},
      payload: body as object,
    });
  const text = (name: string, value: string): Part => ({ name, value });
  const audioPart = (
    data: Buffer | (() => AsyncIterable<Buffer>),
    contentType = 'audio/wav',
  ): Part => ({
    name: 'audio',
    filename: 'episode.wav',
    contentType,
    data,
  });

  it('creates shows (201) that every signed-in user lists newest first, with an absolute feed URL and a fixed UUIDv5 guid', async () => {
    const first = await createShow(ctx, maker, { title: 'First Show', description: 'One' });
    const second = await createShow(ctx, maker, { title: 'Second Show' });
    const theirs = await createShow(ctx, other, { title: 'Their Show' });

    expect(first).toMatchObject({
      creator_id: maker.userId,
      creator_name: 'Show Maker',
      title: 'First Show',
      description: 'One',
      cover_art_url: null,
      language: 'en',
      category: 'Music',
      explicit: false,
      episode_count: 0,
      feed_url: `${ctx.env.publicUrl}/api/podcasts/${first.id}/feed.xml`,
      updated_at: null,
    });
    expect(ctx.env.publicUrl).toMatch(/^https?:\/\//);
    // podcast:guid: UUIDv5 (RFC 4122 §4.3) of the feed URL without its scheme, in the
    // Podcasting 2.0 namespace, computed here independently of the server's code.
    const [row] = await rows<{ feed_guid: string }>(
      ctx,
      sql`select feed_guid from podcasts where id = ${first.id}`,
    );
    const name = first.feed_url.replace(/^https?:\/\//, '');
    const hash = crypto
      .createHash('sha1')
      .update(Buffer.from('ead4c236bf5858c6a2c6a6b28d128cb6', 'hex'))
      .update(name)
      .digest();
    hash[6] = (hash[6]! & 0x0f) | 0x50;
    hash[8] = (hash[8]! & 0x3f) | 0x80;
    const hex = hash.subarray(0, 16).toString('hex');
    expect(row!.feed_guid).toBe(
      `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    );

    const ours = new Set([first.id, second.id, theirs.id]);
    const all = (await list('/api/podcasts', listener)).filter((s) => ours.has(s.id));
    expect(all.map((s) => s.title)).toEqual(['Their Show', 'Second Show', 'First Show']);
    expect(all[0]).toMatchObject({ creator_name: 'Other Maker' });

    const mine = await list('/api/me/podcasts', maker);
    expect(mine.map((s) => s.id)).toEqual([second.id, first.id]);
    expect((await list('/api/me/podcasts', other)).map((s) => s.id)).toEqual([theirs.id]);
    const byListener = await ctx.app.inject({ url: '/api/me/podcasts', headers: listener.headers });
    expect(byListener.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/podcasts' })).statusCode).toBe(401);
  });

  it('lists a row written by other means with a category off the list as Music, not a 500', async () => {
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcasts (creator_id, title, category) values (${other.userId}, 'Odd', 'Polka')
          returning id`,
    );
    const listed = (await list('/api/podcasts', listener)).find((s) => s.id === row!.id);
    expect(listed).toMatchObject({ title: 'Odd', category: 'Music', creator_name: 'Other Maker' });
  });

  it('edits a show (its creator only): fields, a new cover that replaces the old file, the guid unchanged', async () => {
    const show = await createShow(ctx, maker, { title: 'Covered', description: 'Old words' }, png);
    const oldCover = COVER.exec(show.cover_art_url ?? '')?.[1];
    expect(oldCover).toBeDefined();
    const coverPath = (key: string) => path.join(ctx.env.dataDir, 'media', 'cover-art', key);
    expect(fs.existsSync(coverPath(oldCover!))).toBe(true);
    const guid = async () =>
      (
        await rows<{ g: string }>(
          ctx,
          sql`select feed_guid as g from podcasts where id = ${show.id}`,
        )
      )[0]!.g;
    const guidBefore = await guid();

    const res = await sendShow(
      ctx,
      maker,
      [
        text('title', '  Renamed  '),
        text('description', ''),
        text('language', 'pt-BR'),
        text('category', 'Technology'),
        text('explicit', 'true'),
        {
          name: 'cover',
          filename: 'new.png',
          contentType: 'image/png',
          data: await makePng(200, 200),
        },
      ],
      show.id,
    );
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json<PodcastShowDto>();
    expect(edited).toMatchObject({
      id: show.id,
      title: 'Renamed',
      description: null,
      language: 'pt-BR',
      category: 'Technology',
      explicit: true,
      feed_url: show.feed_url,
    });
    expect(edited.updated_at).not.toBeNull();
    const newCover = COVER.exec(edited.cover_art_url ?? '')?.[1];
    expect(newCover).toBeDefined();
    expect(newCover).not.toBe(oldCover);
    expect(fs.existsSync(coverPath(newCover!))).toBe(true);
    expect(fs.existsSync(coverPath(oldCover!))).toBe(false);
    expect(await guid()).toBe(guidBefore);

    // A title alone keeps everything else, the cover included.
    const again = await sendShow(ctx, maker, [text('title', 'Renamed Again')], show.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<PodcastShowDto>()).toMatchObject({
      title: 'Renamed Again',
      category: 'Technology',
      cover_art_url: edited.cover_art_url,
    });
  });

  it("refuses bad show input with the spec's messages, and a caller's creator_id, writing nothing", async () => {
    const create =
      (parts: Part[], user: TestUser | null = maker) =>
      () =>
        sendShow(ctx, user, parts);
    await expectRefused(
      create([text('description', 'no title')]),
      400,
      podcastMessages.titleRequired,
    );
    await expectRefused(create([text('title', '   ')]), 400, podcastMessages.titleRequired);
    await expectRefused(
      create([text('title', 'x'.repeat(201))]),
      400,
      podcastMessages.titleTooLong,
    );
    await expectRefused(
      create([text('title', 'T'), text('description', 'd'.repeat(5001))]),
      400,
      podcastMessages.descriptionTooLong,
    );
    await expectRefused(
      create([text('title', 'T'), text('category', 'Polka')]),
      400,
      podcastMessages.category,
    );
    await expectRefused(
      create([text('title', 'T'), text('language', 'english!')]),
      400,
      podcastMessages.language,
    );
    await expectRefused(
      create([text('title', 'T'), text('explicit', 'yes')]),
      400,
      'Invalid option: expected one of "true"|"false"',
    );
    // Mass assignment: the creator is the caller, whatever the form says.
    await expectRefused(
      create([text('title', 'T'), text('creator_id', other.userId)]),
      400,
      'Unknown field "creator_id"',
    );
    await expectRefused(
      create([text('title', 'T'), text('title', 'Again')]),
      400,
      'The field "title" was sent more than once',
    );
    await expectRefused(
      create([
        text('title', 'T'),
        { name: 'cover', filename: 'c.png', contentType: 'image/png', data: Buffer.from('<html>') },
      ]),
      415,
      'Cover art validation failed. Please ensure you are uploading a valid image file.',
    );
    await expectRefused(
      create([
        text('title', 'T'),
        { name: 'cover', filename: 'big.png', data: lazyBytes(5 * MB + 1, png.subarray(0, 64)) },
      ]),
      413,
      'Cover art must be less than 5MB',
    );
    await expectRefused(
      create([text('title', 'T'), audioPart(wav)]),
      400,
      'Unexpected file field "audio"',
    );
    // Only artists create shows; the policy answers before the body is read.
    await expectRefused(create([text('title', 'T')], listener), 403, 'Artist role required');
    await expectRefused(create([text('title', 'T')], null), 401, 'Authentication required');
  });

  it("refuses another artist's edit and episode with 403 and writes nothing (no row, no file)", async () => {
    const show = await createShow(ctx, maker, { title: 'Mine Alone' }, png);
    await expectRefused(
      () => sendShow(ctx, other, [text('title', 'Taken Over')], show.id),
      403,
      podcastMessages.notCreator,
    );
    await expectRefused(
      () =>
        sendShow(
          ctx,
          other,
          [{ name: 'cover', filename: 'c.png', contentType: 'image/png', data: png }],
          show.id,
        ),
      403,
      podcastMessages.notCreator,
    );
    await expectRefused(
      () => sendEpisode(ctx, other, show.id, [text('title', 'Intruder'), audioPart(wav)]),
      403,
      podcastMessages.notCreator,
    );
    await expectRefused(
      () => sendEpisode(ctx, listener, show.id, [text('title', 'Intruder'), audioPart(wav)]),
      403,
      'Artist role required',
    );
    expect((await showDetail(ctx, maker, show.id)).podcast).toMatchObject({
      title: 'Mine Alone',
      cover_art_url: show.cover_art_url,
      episode_count: 0,
    });

    const missing = '00000000-0000-4000-8000-000000000000';
    await expectRefused(
      () => sendShow(ctx, maker, [text('title', 'Nobody')], missing),
      404,
      podcastMessages.podcastNotFound,
    );
    await expectRefused(
      () => sendEpisode(ctx, maker, missing, [text('title', 'Nowhere'), audioPart(wav)]),
      404,
      podcastMessages.podcastNotFound,
    );
    const get = await ctx.app.inject({
      url: `/api/podcasts/${missing}`,
      headers: listener.headers,
    });
    expect(get.statusCode).toBe(404);
    expect(get.json().error.message).toBe(podcastMessages.podcastNotFound);
  });

  it('uploads an episode: 201 processing, measured, stored in the podcasts bucket with its media job', async () => {
    const show = await createShow(ctx, maker, { title: 'Pilot Show' }, png);
    const audio = makeWav(1.5);
    const episode = await uploadEpisode(ctx, maker, show.id, {
      title: '  Pilot  ',
      description: 'Where it starts',
      episode_number: '3',
      audio,
    });
    expect(episode).toMatchObject({
      podcast_id: show.id,
      podcast_title: 'Pilot Show',
      title: 'Pilot',
      description: 'Where it starts',
      duration: 1.5,
      episode_number: 3,
      cover_art_url: show.cover_art_url,
      status: 'processing',
      renditions: [],
      loudness: null,
      waveform_url: null,
      progress: null,
    });
    expect(episode.audio_url).toMatch(SIGNED_EPISODE_AUDIO);

    const [row] = await rows<{
      audio_key: string;
      audio_url: string;
      audio_bytes: number;
      audio_mime: string;
      duration_ms: number;
      media_status: string;
    }>(
      ctx,
      sql`select audio_key, audio_url, audio_bytes::int as audio_bytes, audio_mime, duration_ms,
                 media_status::text as media_status
          from podcast_episodes where id = ${episode.id}`,
    );
    const key = row!.audio_key.replace(/^podcasts\//, '');
    expect(row).toEqual({
      audio_key: `podcasts/${key}`,
      audio_url: `/media/podcasts/${key}`,
      audio_bytes: audio.length,
      audio_mime: 'audio/wav',
      duration_ms: 1500,
      media_status: 'processing',
    });
    expect(fs.readFileSync(path.join(ctx.env.dataDir, 'media', 'podcasts', key))).toEqual(audio);
    const jobs = await rows<{ state: string }>(
      ctx,
      sql`select state::text as state from jobs
          where name = 'podcasts.episode-media' and payload->>'episodeId' = ${episode.id}`,
    );
    expect(jobs).toEqual([{ state: 'queued' }]);

    // Playable at once from its original, under the signed URL only.
    const served = await ctx.app.inject({ url: episode.audio_url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(audio);
    expect((await ctx.app.inject({ url: episode.audio_url.split('?')[0]! })).statusCode).toBe(403);

    // The episode number defaults to 1.
    const plain = await uploadEpisode(ctx, maker, show.id, { title: 'Unnumbered' });
    expect(plain.episode_number).toBe(1);
  });

  it("tells the creator's followers of a new episode (new_release, linking the show), nobody else", async () => {
    const show = await createShow(ctx, maker, { title: 'Followed Show' });
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/follows/${maker.userId}`,
      headers: listener.headers,
    });
    const before = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from notifications where type = 'new_release'`,
    );
    const episode = await uploadEpisode(ctx, maker, show.id, { title: 'Fresh <b>Episode</b>' });
    const notes = await rows<{ user_id: string; title: string; message: string; link: string }>(
      ctx,
      sql`select user_id, title, message, link from notifications
          where type = 'new_release' and message like ${'%' + episode.title + '%'}`,
    );
    expect(notes).toEqual([
      {
        user_id: listener.userId,
        title: 'New episode',
        message: 'Show Maker published "Fresh <b>Episode</b>"',
        link: `/podcasts?show=${show.id}`,
      },
    ]);
    const after = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from notifications where type = 'new_release'`,
    );
    expect(after[0]!.n - before[0]!.n).toBe(1);
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/follows/${maker.userId}`,
      headers: listener.headers,
    });
  });

  it("refuses bad episodes with spec §5's messages, storing and queueing nothing", async () => {
    const show = await createShow(ctx, maker, { title: 'Strict Show' });
    const send = (parts: Part[]) => () => sendEpisode(ctx, maker, show.id, parts);
    await expectRefused(send([text('title', 'No File')]), 400, podcastMessages.audioRequired);
    await expectRefused(
      send([
        text('title', 'Left Empty'),
        {
          name: 'audio',
          filename: '',
          contentType: 'application/octet-stream',
          data: Buffer.alloc(0),
        },
      ]),
      400,
      podcastMessages.audioRequired,
    );
    // Declared as something else: refused before a byte is stored.
    const typed = await expectRefused(
      send([text('title', 'Text'), audioPart(wav, 'text/plain')]),
      415,
      podcastMessages.audioType,
    );
    expect(typed.json().error.details).toEqual({ field: 'audio', reason: 'type' });
    // Declared audio, but not audio: the signature, then a real decode, decide.
    await expectRefused(
      send([
        text('title', 'Html'),
        audioPart(Buffer.from('<html><script>x</script></html>'), 'audio/mpeg'),
      ]),
      415,
      podcastMessages.audioType,
    );
    // A WAV whose header parses but whose codec nothing decodes: the decode refuses it.
    const undecodable = Buffer.from(makeWav(0.5));
    undecodable.writeUInt16LE(0x9999, 20);
    const lying = await expectRefused(
      send([text('title', 'Odd Codec'), audioPart(undecodable)]),
      422,
      podcastMessages.audioType,
    );
    expect(lying.json().error).toMatchObject({
      code: 'unprocessable_media',
      details: { field: 'audio', reason: 'undecodable' },
    });
    const huge = await expectRefused(
      send([
        text('title', 'Huge'),
        audioPart(lazyBytes(100 * MB + 1, makeWav(0.01).subarray(0, 44))),
      ]),
      413,
      podcastMessages.audioTooLarge,
    );
    expect(huge.json().error.details).toMatchObject({ field: 'audio' });
    for (const n of ['0', '1.5', 'x', '-2', '']) {
      await expectRefused(
        send([text('title', `Number ${n}`), text('episode_number', n), audioPart(wav)]),
        400,
        podcastMessages.episodeNumber,
      );
    }
    await expectRefused(send([audioPart(wav)]), 400, podcastMessages.episodeTitleRequired);
    await expectRefused(
      send([text('title', 'x'.repeat(201)), audioPart(wav)]),
      400,
      podcastMessages.episodeTitleTooLong,
    );
    await expectRefused(
      send([text('title', 'Moved'), text('podcast_id', crypto.randomUUID()), audioPart(wav)]),
      400,
      'Unknown field "podcast_id"',
    );
    await expectRefused(
      send([text('title', 'Two'), audioPart(wav), audioPart(wav)]),
      400,
      'Unexpected file field "audio"',
    );
  }, 60_000);

  it('lists episodes by episode number descending, then newest first, with the show and its count', async () => {
    const show = await createShow(ctx, maker, { title: 'Ordered Show' });
    const one = await uploadEpisode(ctx, maker, show.id, { title: 'One', episode_number: '1' });
    const threeOld = await uploadEpisode(ctx, maker, show.id, {
      title: 'Three',
      episode_number: '3',
    });
    const two = await uploadEpisode(ctx, maker, show.id, { title: 'Two', episode_number: '2' });
    const threeNew = await uploadEpisode(ctx, maker, show.id, {
      title: 'Three Again',
      episode_number: '3',
    });
    const detail = await showDetail(ctx, listener, show.id);
    expect(detail.podcast).toMatchObject({ id: show.id, episode_count: 4 });
    expect(detail.episodes.map((e) => e.id)).toEqual([threeNew.id, threeOld.id, two.id, one.id]);
    expect(detail.episodes.every((e) => SIGNED_EPISODE_AUDIO.test(e.audio_url))).toBe(true);
    const listed = (await list('/api/podcasts', listener)).find((s) => s.id === show.id);
    expect(listed?.episode_count).toBe(4);
  });

  it('keeps where each listener is: clamped, played near the end or when told, and played stays played', async () => {
    const show = await createShow(ctx, maker, { title: 'Long Show' });
    // Five minutes, so "within 30 s of the end" (4:30) comes before 95 % (4:45).
    const [episode] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcast_episodes (podcast_id, title, audio_url, duration_ms)
          values (${show.id}, 'Five Minutes', ${`/media/podcasts/${crypto.randomUUID()}.wav`}, 300000)
          returning id`,
    );
    const id = episode!.id;
    const progressOf = async (user: TestUser) =>
      (await showDetail(ctx, user, show.id)).episodes.find((e) => e.id === id)!.progress;

    expect(await progressOf(listener)).toBeNull();
    const first = await put(id, { position: 12.5 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<EpisodeProgressDto>()).toMatchObject({ position: 12.5, completed: false });
    expect(first.json<EpisodeProgressDto>().updated_at).toBe(ctx.clock.now().toISOString());
    // Another device asks the server, and resumes at 12.5 s; nobody else is affected.
    expect(await progressOf(listener)).toEqual(first.json());
    expect(await progressOf(other)).toBeNull();

    expect((await put(id, { position: 269 })).json()).toMatchObject({ completed: false });
    expect((await put(id, { position: 270 })).json()).toMatchObject({
      position: 270,
      completed: true,
    });
    // Listening again moves the position; it stays played.
    expect((await put(id, { position: 10 })).json()).toMatchObject({
      position: 10,
      completed: true,
    });
    expect((await put(id, { position: 5, completed: false })).json()).toMatchObject({
      position: 5,
      completed: true,
    });
    // Past the end is the end.
    expect((await put(id, { position: 5000 })).json()).toMatchObject({ position: 300 });
    const rowsOf = await rows<{ position_ms: number; completed: boolean }>(
      ctx,
      sql`select position_ms, completed from episode_progress where episode_id = ${id}`,
    );
    expect(rowsOf).toEqual([{ position_ms: 300000, completed: true }]);

    // The player says it ended: played, wherever the position is.
    const told = await put(id, { position: 1, completed: true }, other);
    expect(told.json()).toMatchObject({ position: 1, completed: true });

    const missing = await put('00000000-0000-4000-8000-000000000000', { position: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(podcastMessages.episodeNotFound);
    for (const body of [
      { position: -1 },
      { position: 'x' },
      {},
      { position: 1, user_id: other.userId },
    ]) {
      const bad = await put(id, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await put(id, { position: 1 }, null)).statusCode).toBe(401);
    expect(
      await rows(ctx, sql`select 1 from episode_progress where episode_id = ${id}`),
    ).toHaveLength(2);
  });

  it('a failed insert leaves no episode, no file and no job', async () => {
    const show = await createShow(ctx, maker, { title: 'Doomed Show' });
    const db = ctx.db.database.db;
    await db.execute(sql`
      create function refuse_doomed_episode() returns trigger language plpgsql as $$
      begin
        if new.title = 'doomed' then raise exception 'refused by test trigger'; end if;
        return new;
      end $$`);
    await db.execute(
      sql`create trigger refuse_doomed_episode before insert on podcast_episodes
          for each row execute function refuse_doomed_episode()`,
    );
    try {
      await expectRefused(
        () => sendEpisode(ctx, maker, show.id, [text('title', 'doomed'), audioPart(wav)]),
        500,
        'Internal server error',
      );
    } finally {
      await db.execute(sql`drop trigger refuse_doomed_episode on podcast_episodes`);
      await db.execute(sql`drop function refuse_doomed_episode()`);
    }
  });
});
