// The artist dashboard's API (spec §2 Artist dashboard, §4 tier, §9): every figure checked
// against stream records written by hand at known UTC times, and the access rules.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ArtistAnalytics } from '../../src/contracts/artist-analytics.contract.ts';
import { createPlaysRepository } from '../../src/server/modules/listening/plays.repository.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const DAY = 86_400_000;

async function seedSong(ctx: TestContext, artistId: string, title: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (artist_id, title, file_url, duration_ms)
        values (${artistId}, ${title}, ${`/media/music/seed-${crypto.randomUUID()}.wav`}, 100000)
        returning id`,
  );
  return row!.id;
}

async function seedEpisode(ctx: TestContext, creatorId: string, title: string) {
  const [show] = await rows<{ id: string }>(
    ctx,
    sql`insert into podcasts (creator_id, title) values (${creatorId}, ${`Show of ${title}`})
        returning id`,
  );
  const [episode] = await rows<{ id: string }>(
    ctx,
    sql`insert into podcast_episodes (podcast_id, title, audio_url)
        values (${show!.id}, ${title}, ${`/media/podcasts/seed-${crypto.randomUUID()}.wav`})
        returning id`,
  );
  return episode!.id;
}

/** `count` plays of a song (its pending play counts too, folded below) or an episode. */
async function play(
  ctx: TestContext,
  user: TestUser,
  item: { song: string } | { episode: string },
  at: Date,
  count = 1,
) {
  for (let i = 0; i < count; i++) {
    if ('song' in item) {
      await ctx.db.database.db.execute(sql`
        with p as (insert into stream_analytics (user_id, song_id, played_at)
                   values (${user.userId}, ${item.song}, ${at.toISOString()}) returning song_id)
        insert into play_count_deltas (song_id) select song_id from p`);
    } else {
      await ctx.db.database.db.execute(sql`
        insert into stream_analytics (user_id, podcast_episode_id, played_at)
        values (${user.userId}, ${item.episode}, ${at.toISOString()})`);
    }
  }
}

async function follow(ctx: TestContext, follower: TestUser, artist: TestUser, at: Date) {
  await ctx.db.database.db.execute(sql`
    insert into user_follows (follower_id, following_id, created_at)
    values (${follower.userId}, ${artist.userId}, ${at.toISOString()})`);
}

describe.each(dbKinds)('artist analytics on %s', (kind) => {
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '0' });
  let artist: TestUser;
  let newArtist: TestUser;
  let otherArtist: TestUser;
  let listener1: TestUser;
  let listener2: TestUser;
  let listener3: TestUser;
  let song1: string;
  let song2: string;
  let episode: string;
  // UTC midnight of the clock's today, and a time on the day `n` days before.
  let today0: number;
  const dayAt = (n: number, hours = 12) => new Date(today0 - n * DAY + hours * 3_600_000);
  const date = (n: number) => new Date(today0 - n * DAY).toISOString().slice(0, 10);

  const get = (user: TestUser | null) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/artist/analytics',
      headers: user ? user.headers : {},
    });
  const analytics = async (user: TestUser) => {
    const res = await get(user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ArtistAnalytics>();
  };

  beforeAll(async () => {
    today0 = Date.parse(ctx.clock.now().toISOString().slice(0, 10));
    artist = await makeUser(ctx, 'artist', 'Dash Artist');
    newArtist = await makeUser(ctx, 'artist', 'New Artist');
    otherArtist = await makeUser(ctx, 'artist', 'Other Artist');
    listener1 = await makeUser(ctx, 'listener', 'Listener One');
    listener2 = await makeUser(ctx, 'listener', 'Listener Two');
    listener3 = await makeUser(ctx, 'listener', 'Listener Three');
    song1 = await seedSong(ctx, artist.userId, 'First Song');
    song2 = await seedSong(ctx, artist.userId, 'Second Song');
    episode = await seedEpisode(ctx, artist.userId, 'Pilot');
    const otherSong = await seedSong(ctx, otherArtist.userId, 'Not Mine');

    // Today: 3 streams by 2 listeners (one of them an episode's).
    await play(ctx, listener1, { song: song1 }, dayAt(0, 0), 2);
    await play(ctx, listener2, { episode }, dayAt(0, 1));
    // Yesterday: 2 by 2, one in its last millisecond.
    await play(ctx, listener1, { song: song2 }, dayAt(1, 0));
    await play(ctx, listener3, { song: song2 }, new Date(today0 - 1));
    // Six days ago: the recent window's first day.
    await play(ctx, listener2, { song: song1 }, dayAt(6));
    // Seven days ago: in the 30 days, not in the recent 7.
    await play(ctx, listener3, { song: song1 }, dayAt(7), 3);
    // 29 days ago: the window's first day, from its first millisecond.
    await play(ctx, listener1, { song: song1 }, dayAt(29, 0));
    // 30 days ago (its last millisecond): outside the window, but in the songs' plays.
    await play(ctx, listener2, { song: song1 }, new Date(today0 - 29 * DAY - 1), 5);
    // 40 days ago: counts for the episode's plays, not in the window.
    await play(ctx, listener3, { episode }, dayAt(40));
    // Another artist's plays count only for them.
    await play(ctx, listener1, { song: otherSong }, dayAt(0), 4);
    await play(ctx, listener1, { song: otherSong }, dayAt(3), 4);
    const plays = createPlaysRepository(ctx.db.database.db);
    while ((await plays.foldPlayCounts(10_000)) > 0);

    await follow(ctx, listener1, artist, dayAt(0));
    await follow(ctx, listener2, artist, dayAt(10));
    await follow(ctx, listener3, artist, dayAt(40));
    await follow(ctx, listener3, otherArtist, dayAt(0));
  });

  it('answers 401 without a session and 403 to listeners and pending artists', async () => {
    expect((await get(null)).statusCode).toBe(401);
    const listenerRes = await get(listener1);
    expect(listenerRes.statusCode).toBe(403);
    expect(listenerRes.json().error.code).toBeTruthy();
    const pending = await makeUser(ctx, 'pending_artist', 'Pending Artist');
    expect((await get(pending)).statusCode).toBe(403);
  });

  it('a new artist gets 30 zero days and empty lists', async () => {
    const a = await analytics(newArtist);
    expect(a.days).toHaveLength(30);
    expect(a.days[0]!.date).toBe(date(29));
    expect(a.days[29]!.date).toBe(date(0));
    expect(a.days.every((d) => d.streams === 0 && d.unique_listeners === 0)).toBe(true);
    expect(a).toMatchObject({
      streams_30d: 0,
      recent_streams: 0,
      songs_count: 0,
      episodes_count: 0,
      estimated_revenue_cents: 0,
      tier: null,
      top_songs: [],
      top_episodes: [],
      new_followers: { count: 0, latest: [] },
    });
    // Without plays nothing is stored: the read stays a read.
    const [stored] = await rows<{ n: number | string }>(
      ctx,
      sql`select count(*) as n from artist_daily_analytics where artist_id = ${newArtist.userId}`,
    );
    expect(Number(stored!.n)).toBe(0);
  });

  it('counts the hand-made streams per UTC day, the windows, the estimate and the lists', async () => {
    // A rollup of yesterday written before it ended (as the demo writes today's) is recounted.
    await ctx.db.database.db.execute(sql`
      insert into artist_daily_analytics
        (artist_id, analytics_date, total_streams, unique_listeners, updated_at)
      values (${artist.userId}, ${date(1)}, 99, 9, ${dayAt(1).toISOString()})`);
    const a = await analytics(artist);
    const byDate = Object.fromEntries(a.days.map((d) => [d.date, d]));
    expect(a.days).toHaveLength(30);
    expect(byDate[date(0)]).toEqual({ date: date(0), streams: 3, unique_listeners: 2 });
    expect(byDate[date(1)]).toEqual({ date: date(1), streams: 2, unique_listeners: 2 });
    expect(byDate[date(6)]).toEqual({ date: date(6), streams: 1, unique_listeners: 1 });
    expect(byDate[date(7)]).toEqual({ date: date(7), streams: 3, unique_listeners: 1 });
    expect(byDate[date(29)]).toEqual({ date: date(29), streams: 1, unique_listeners: 1 });
    expect(a.days.reduce((n, d) => n + d.streams, 0)).toBe(10);
    expect(a.streams_30d).toBe(10);
    expect(a.recent_streams).toBe(6);
    // 10 streams × $0.004 = $0.04.
    expect(a.estimated_revenue_cents).toBe(4);
    expect(a.songs_count).toBe(2);
    expect(a.episodes_count).toBe(1);
    expect(a.tier).toBeNull();
    expect(a.top_songs).toEqual([
      { id: song1, title: 'First Song', plays: 12 },
      { id: song2, title: 'Second Song', plays: 2 },
    ]);
    expect(a.top_episodes).toEqual([
      { id: episode, title: 'Pilot', podcast_title: 'Show of Pilot', plays: 2 },
    ]);
    expect(a.new_followers.count).toBe(2);
    expect(a.new_followers.latest.map((f) => [f.user_id, f.display_name])).toEqual([
      [listener1.userId, 'Listener One'],
      [listener2.userId, 'Listener Two'],
    ]);
    expect(a.new_followers.latest[0]!.followed_at).toBe(dayAt(0).toISOString());
  });

  it('keeps finished days, counts today live, and answers the same again', async () => {
    const first = await analytics(artist);
    const [stored] = await rows<{ n: number | string }>(
      ctx,
      sql`select count(*) as n from artist_daily_analytics where artist_id = ${artist.userId}`,
    );
    expect(Number(stored!.n)).toBe(29);
    expect(await analytics(artist)).toEqual(first);
    await play(ctx, listener3, { song: song2 }, dayAt(0, 2));
    const after = await analytics(artist);
    expect(after.days[29]).toEqual({ date: date(0), streams: 4, unique_listeners: 3 });
    expect(after.recent_streams).toBe(7);
    // The episode's finished days are kept (1 play, 40 days ago); today's are counted live.
    const [kept] = await rows<{ plays: number | string; counted_until: Date | string }>(
      ctx,
      sql`select plays, counted_until from episode_play_totals where episode_id = ${episode}`,
    );
    expect(Number(kept!.plays)).toBe(1);
    expect(new Date(kept!.counted_until).getTime()).toBe(today0);
    await play(ctx, listener1, { episode }, dayAt(0, 3));
    expect((await analytics(artist)).top_episodes[0]!.plays).toBe(3);
    expect(after.streams_30d).toBe(11);
    // 11 × 0.4 = 4.4 cents → 4.
    expect(after.estimated_revenue_cents).toBe(4);
  });

  it('the tier and share come from the latest calculated month', async () => {
    await ctx.db.database.db.execute(sql`
      insert into artist_revenue (artist_id, month, total_streams)
      values (${artist.userId}, '2026-09', 150000), (${artist.userId}, '2026-10', 10000),
             (${otherArtist.userId}, '2026-11', 5)`);
    expect((await analytics(artist)).tier).toEqual({
      tier: 'medium',
      share_percent: 75,
      month: '2026-10',
      month_streams: 10000,
    });
    expect((await analytics(otherArtist)).tier).toEqual({
      tier: 'small',
      share_percent: 80,
      month: '2026-11',
      month_streams: 5,
    });
  });

  it('another artist sees only their own figures', async () => {
    const b = await analytics(otherArtist);
    expect(b.streams_30d).toBe(8);
    expect(b.recent_streams).toBe(8);
    expect(b.songs_count).toBe(1);
    expect(b.top_songs.map((s) => s.plays)).toEqual([8]);
    expect(b.new_followers.count).toBe(1);
  });
});
