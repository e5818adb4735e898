// OpenSubsonic podcasts and bookmarks (docs/decisions/0034): every show is every listener's
// channel, episodes are `ep-<uuid>` with their show's cover, and a bookmark is the web
// player's episode progress, so a place saved on a phone resumes in the browser and the other
// way round. Managing channels is refused (shows are published by artists); a refusal writes
// nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp } from './auth-helpers.ts';
import { rows } from './songs-helpers.ts';
import { phoneAccount, type PhoneAccount as Account } from './subsonic-helpers.ts';

type Json = Record<string, unknown>;
type Envelope = Json & { status: string; error?: { code: number; message: string } };
type Episode = Json & { id: string; channelId: string };
type Channel = Json & { id: string; episode?: Episode[] };
type Bookmark = { position: number; username: string; entry: Episode };
type Progress = { position: number; completed: boolean } | null;

const BULK = 110;

describe.each(dbKinds)('Subsonic podcasts and bookmarks on %s', (kind) => {
  const ctx = useTestApp(kind);
  let listener: Account;
  let other: Account;
  let creator: Account;
  let showA = '';
  let showB = '';
  let bulkShow = '';
  const ep = { a1: '', a2: '', b1: '' };
  let songId = '';

  const account = () => phoneAccount(ctx.app);

  async function rest(who: Account, method: string, query: Record<string, string> = {}) {
    const qs = new URLSearchParams({
      u: who.email,
      p: who.password,
      v: '1.16.1',
      c: 'test',
      f: 'json',
      ...query,
    });
    const res = await ctx.app.inject({ url: `/rest/${method}?${qs}`, remoteAddress: freshIp() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  }
  const ok = async (who: Account, method: string, query: Record<string, string> = {}) => {
    const env = await rest(who, method, query);
    expect(env.status, JSON.stringify(env.error)).toBe('ok');
    return env;
  };
  const failsWith = async (
    code: number,
    who: Account,
    method: string,
    query: Record<string, string>,
  ) => {
    const env = await rest(who, method, query);
    expect(env, `${method} ${JSON.stringify(query)}`).toMatchObject({
      status: 'failed',
      error: { code },
    });
    return env.error!.message;
  };

  /** The web's progress for an episode of a show, as the Podcasts page reads it. */
  async function webProgress(who: Account, show: string, episode: string): Promise<Progress> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/podcasts/${show}`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const found = res
      .json<{ episodes: Array<{ id: string; progress: Progress }> }>()
      .episodes.find((e) => e.id === episode);
    return found!.progress;
  }
  const progressRows = () =>
    rows<Json>(
      ctx,
      sql`select user_id, episode_id, position_ms, completed, updated_at from episode_progress
          order by user_id, episode_id`,
    );
  const bookmarksOf = async (who: Account) =>
    ((await ok(who, 'getBookmarks')).bookmarks as { bookmark: Bookmark[] }).bookmark;

  async function episode(
    show: string,
    title: string,
    number: number,
    published: string,
    durationMs = 600_000,
  ) {
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcast_episodes (podcast_id, title, description, audio_url, audio_key,
            audio_bytes, audio_mime, duration_ms, episode_number, published_at)
          values (${show}, ${title}, ${`About ${title}`}, ${`/media/podcasts/${title}.m4a`},
            ${`podcasts/${title}.m4a`}, 123456, 'audio/mp4', ${durationMs}, ${number},
            ${published}::timestamptz)
          returning id`,
    );
    return row!.id;
  }

  beforeAll(async () => {
    listener = await account();
    other = await account();
    creator = await account();
    const show = async (title: string, created: string) => {
      const [row] = await rows<{ id: string }>(
        ctx,
        sql`insert into podcasts (creator_id, title, description, cover_art_url, created_at)
            values (${creator.userId}, ${title}, ${`${title} notes`}, '/media/cover-art/c.webp',
              ${created}::timestamptz)
            returning id`,
      );
      return row!.id;
    };
    showA = await show('Alpha Show', '2024-01-01T00:00:00Z');
    showB = await show('Beta Show', '2024-02-01T00:00:00Z');
    bulkShow = await show('Bulk Show', '2023-01-01T00:00:00Z');
    ep.a1 = await episode(showA, 'A1', 1, '2024-03-01T00:00:00Z');
    ep.a2 = await episode(showA, 'A2', 2, '2024-05-01T00:00:00Z');
    ep.b1 = await episode(showB, 'B1', 1, '2024-04-01T00:00:00Z', 40_000);
    await ctx.db.database.db.execute(
      sql`insert into podcast_episodes (podcast_id, title, audio_url, duration_ms, episode_number, published_at)
          select ${bulkShow}, 'Old ' || n, '/media/podcasts/old' || n || '.mp3', 1000, n,
            '2020-01-01T00:00:00Z'::timestamptz + n * interval '1 hour'
          from generate_series(1, ${BULK}) n`,
    );
    const [song] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (artist_id, artist, title, file_url, file_key, duration_ms)
          values (${creator.userId}, 'C', 'A song', '/media/music/x.mp3', 'music/x.mp3', 1000)
          returning id`,
    );
    songId = song!.id;
  });

  it('lists every show as a channel with its episodes, newest show first', async () => {
    const env = await ok(listener, 'getPodcasts');
    const channels = (env.podcasts as { channel: Channel[] }).channel;
    expect(channels.map((c) => c.id)).toEqual([`pc-${showB}`, `pc-${showA}`, `pc-${bulkShow}`]);
    const a = channels.find((c) => c.id === `pc-${showA}`)!;
    expect(a).toMatchObject({
      title: 'Alpha Show',
      description: 'Alpha Show notes',
      coverArt: `pc-${showA}`,
      status: 'completed',
      url: expect.stringMatching(new RegExp(`/api/podcasts/${showA}/feed\\.xml$`)),
    });
    // Episode number descending, as the web lists them.
    expect(a.episode!.map((e) => e.id)).toEqual([`ep-${ep.a2}`, `ep-${ep.a1}`]);
    expect(a.episode![0]).toEqual({
      id: `ep-${ep.a2}`,
      streamId: `ep-${ep.a2}`,
      channelId: `pc-${showA}`,
      parent: `pc-${showA}`,
      title: 'A2',
      description: 'About A2',
      publishDate: '2024-05-01T00:00:00.000Z',
      created: '2024-05-01T00:00:00.000Z',
      status: 'completed',
      duration: 600,
      contentType: 'audio/mp4',
      suffix: 'm4a',
      size: 123456,
      coverArt: `pc-${showA}`,
      isDir: false,
      isVideo: false,
      type: 'podcast',
      mediaType: 'podcast',
    });
    expect(channels.find((c) => c.id === `pc-${bulkShow}`)!.episode).toHaveLength(BULK);

    const one = await ok(listener, 'getPodcasts', { id: `pc-${showB}`, includeEpisodes: 'false' });
    const only = (one.podcasts as { channel: Channel[] }).channel;
    expect(only).toHaveLength(1);
    expect(only[0]).toMatchObject({ id: `pc-${showB}`, title: 'Beta Show' });
    expect(only[0]!.episode).toBeUndefined();

    for (const id of [`pc-${crypto.randomUUID()}`, '../../etc/passwd', showA, `ep-${ep.a1}`])
      await failsWith(70, listener, 'getPodcasts', { id });
  });

  it('answers the newest episodes across shows, the count capped', async () => {
    const two = await ok(listener, 'getNewestPodcasts', { count: '2' });
    expect((two.newestPodcasts as { episode: Episode[] }).episode.map((e) => e.id)).toEqual([
      `ep-${ep.a2}`,
      `ep-${ep.b1}`,
    ]);
    const dflt = await ok(listener, 'getNewestPodcasts');
    expect((dflt.newestPodcasts as { episode: Episode[] }).episode).toHaveLength(20);
    const huge = await ok(listener, 'getNewestPodcasts', { count: '100000' });
    expect((huge.newestPodcasts as { episode: Episode[] }).episode).toHaveLength(100);
    await failsWith(0, listener, 'getNewestPodcasts', { count: '-1' });
    await failsWith(0, listener, 'getNewestPodcasts', { count: 'many' });
  });

  it('refuses managing channels and episodes (50), writing nothing; refresh is a no-op', async () => {
    const count = async () =>
      rows<Json>(
        ctx,
        sql`select (select count(*)::int from podcasts) as shows,
              (select count(*)::int from podcast_episodes) as episodes`,
      );
    const before = await count();
    await ok(listener, 'refreshPodcasts');
    await failsWith(50, listener, 'createPodcastChannel', { url: 'https://example.test/feed' });
    await failsWith(50, creator, 'deletePodcastChannel', { id: `pc-${showA}` });
    await failsWith(50, listener, 'downloadPodcastEpisode', { id: `ep-${ep.a1}` });
    await failsWith(50, creator, 'deletePodcastEpisode', { id: `ep-${ep.a1}` });
    expect(await count()).toEqual(before);
  });

  it('makes a bookmark the web progress, and the web progress a bookmark', async () => {
    // Phone → browser.
    await ok(listener, 'createBookmark', { id: `ep-${ep.a1}`, position: '90500', comment: 'hi' });
    expect(await webProgress(listener, showA, ep.a1)).toMatchObject({
      position: 90.5,
      completed: false,
    });
    // Another listener's place is their own.
    expect(await webProgress(other, showA, ep.a1)).toBeNull();
    expect(await bookmarksOf(other)).toEqual([]);

    // Browser → phone (a moment later: the list is most recently moved first).
    ctx.clock.advance(1000);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/me/episode-progress/${ep.a2}`,
      headers: listener.headers,
      payload: { position: 300 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const marks = await bookmarksOf(listener);
    expect(marks.map((b) => [b.entry.id, b.position])).toEqual([
      [`ep-${ep.a2}`, 300_000],
      [`ep-${ep.a1}`, 90_500],
    ]);
    expect(marks[0]).toMatchObject({
      username: listener.email,
      comment: '',
      created: expect.any(String),
      changed: expect.any(String),
      entry: { id: `ep-${ep.a2}`, channelId: `pc-${showA}`, type: 'podcast' },
    });

    // Moving the bookmark moves the web's place; past the end it is clamped and played.
    await ok(listener, 'createBookmark', { id: `ep-${ep.b1}`, position: '999999' });
    expect(await webProgress(listener, showB, ep.b1)).toMatchObject({
      position: 40,
      completed: true,
    });

    // Deleting puts the place back to the start: gone from the list, played stays played.
    await ok(listener, 'deleteBookmark', { id: `ep-${ep.b1}` });
    expect(await webProgress(listener, showB, ep.b1)).toMatchObject({
      position: 0,
      completed: true,
    });
    expect((await bookmarksOf(listener)).map((b) => b.entry.id)).toEqual([
      `ep-${ep.a2}`,
      `ep-${ep.a1}`,
    ]);
    await failsWith(70, listener, 'deleteBookmark', { id: `ep-${ep.b1}` });
    await failsWith(70, other, 'deleteBookmark', { id: `ep-${ep.a1}` });
    expect(await webProgress(listener, showA, ep.a1)).toMatchObject({ position: 90.5 });
  });

  it('refuses bad bookmarks with envelopes, writing nothing', async () => {
    const before = await progressRows();
    // A song: the web player resumes episodes only.
    expect(await failsWith(0, listener, 'createBookmark', { id: songId, position: '1000' })).toBe(
      'Bookmarks are for podcast episodes',
    );
    await failsWith(0, listener, 'deleteBookmark', { id: songId });
    for (const id of ['../../etc/passwd', `ep-${crypto.randomUUID()}`, `pc-${showA}`, 'ep-'])
      await failsWith(70, listener, 'createBookmark', { id, position: '1000' });
    await failsWith(70, listener, 'deleteBookmark', { id: '../../etc/passwd' });
    await failsWith(0, listener, 'createBookmark', { id: `ep-${ep.a1}`, position: '-1' });
    await failsWith(0, listener, 'createBookmark', { id: `ep-${ep.a1}`, position: '1.5e3' });
    // Past a day: the web's progress rule, with its message.
    expect(
      await failsWith(0, listener, 'createBookmark', {
        id: `ep-${ep.a1}`,
        position: String(25 * 3600 * 1000),
      }),
    ).toBe('Position must be a number of seconds, at least 0');
    await failsWith(10, listener, 'createBookmark', { id: `ep-${ep.a1}` });
    await failsWith(10, listener, 'createBookmark', { position: '1000' });
    await failsWith(10, listener, 'deleteBookmark', {});
    expect(await progressRows()).toEqual(before);
  });

  it('answers getBookmarks and getPodcasts in well-formed XML', async () => {
    const qs = new URLSearchParams({ u: listener.email, p: listener.password });
    const marks = await ctx.app.inject({
      url: `/rest/getBookmarks.view?${qs}`,
      remoteAddress: freshIp(),
    });
    expect(marks.body).toMatch(/<bookmark position="300000"[^>]*><entry id="ep-/);
    const pods = await ctx.app.inject({
      url: `/rest/getPodcasts.view?${qs}&id=pc-${showA}`,
      remoteAddress: freshIp(),
    });
    expect(pods.body).toMatch(/<channel id="pc-[^"]+"[^>]*><episode id="ep-/);
  });
});
