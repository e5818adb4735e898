import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adMessages } from '../../src/core/validation/ad.rules.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  askShowing,
  createAd,
  impressionRows,
  makeAdmin,
  nextAd,
  postImpression,
  setActive,
  showingRows,
  startPlay,
  subscribe,
} from './ads-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

/*
 * What an ad impression is worth (docs/decisions/0023): recorded only for a showing the server
 * issued to that listener, for an ad still active, while the listener is free, once, no sooner
 * than the ad's duration after the showing, and paid to what the listener's own stream record
 * named then; showings capped (one per 10 minutes) and rate limited. Every refusal is its own
 * 4xx and writes nothing. With the default settings: the cap is on.
 */

const errorOf = (res: { json<T>(): T }) =>
  res.json<{ error: { code: string; message: string } }>().error;

describe.each(dbKinds)('ad impressions on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Impression Artist');
  });

  /** The only active ad: a fresh one of `seconds` (by a fresh admin: tests move the clock). */
  async function onlyAd(title: string, seconds = 30) {
    admin = await makeAdmin(ctx, `Admin of ${title}`);
    const res = await ctx.app.inject({ url: '/api/admin/ads', headers: admin.headers });
    for (const ad of res.json<{ items: { id: string; active: boolean }[] }>().items)
      if (ad.active) await setActive(ctx, admin, ad.id, false);
    return createAd(ctx, admin, { title, duration: String(seconds) });
  }

  async function song(title: string, durationMs = 180_000): Promise<string> {
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (title, artist_id, file_url, duration_ms)
          values (${title}, ${artist.userId}, ${`/media/music/${crypto.randomUUID()}.wav`},
                  ${durationMs})
          returning id`,
    );
    return row!.id;
  }

  /** Asserts `res` is the refusal `status`/`code` and that nothing was written. */
  async function refused(
    res: Awaited<ReturnType<typeof postImpression>>,
    status: number,
    code: string,
    what: string,
    before: unknown[],
  ) {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
    expect(errorOf(res).code, what).toBe(code);
    expect(await impressionRows(ctx), what).toEqual(before);
  }

  it("records one impression per showing issued to this listener, after the ad's duration, paid to the listener's own current play", async () => {
    const ad = await onlyAd('Worth its price', 5);
    const listener = await makeUser(ctx, 'listener', 'Paying Attention');
    const other = await makeUser(ctx, 'listener', 'Someone Else');
    const played = await song('Really Played');
    const claimed = await song('Only Claimed');
    await startPlay(ctx, listener, played);
    // Someone else's play is not this listener's.
    await startPlay(ctx, other, claimed);

    const shown = (await nextAd(ctx, listener))!;
    expect(shown.id).toBe(ad.id);
    const [showing] = (await showingRows(ctx)).filter((r) => r.id === shown.showing_id);
    expect(showing).toMatchObject({ user_id: listener.userId, song_id: played, duration_ms: 5000 });
    const before = await impressionRows(ctx);

    const early = await postImpression(ctx, listener, { showing_id: shown.showing_id });
    await refused(early, 409, 'ad_showing_too_early', 'at once', before);
    expect(errorOf(early).message).toBe(adMessages.showingTooEarly);
    ctx.clock.advance(4999);
    await refused(
      await postImpression(ctx, listener, { showing_id: shown.showing_id }),
      409,
      'ad_showing_too_early',
      '1 ms before the end',
      before,
    );
    ctx.clock.advance(1);
    // Not the listener's showing, not a showing, not in the contract's shape.
    await refused(
      await postImpression(ctx, other, { showing_id: shown.showing_id }),
      404,
      'ad_showing_not_found',
      "another listener's showing",
      before,
    );
    await refused(
      await postImpression(ctx, listener, { showing_id: crypto.randomUUID() }),
      404,
      'ad_showing_not_found',
      'a made-up showing',
      before,
    );
    for (const [what, body] of [
      ['a client-supplied song', { showing_id: shown.showing_id, song_id: claimed }],
      ['the ad instead of the showing', { ad_id: ad.id }],
      ['a signed token of old', { showing_id: `${shown.showing_id}.abc.def` }],
    ] as const)
      await refused(
        await postImpression(ctx, listener, body),
        400,
        'validation_failed',
        what,
        before,
      );

    // Eight posts of it at once: one impression, paid to the song the listener played.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        postImpression(ctx, listener, { showing_id: shown.showing_id }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((r) => r.json<{ recorded: boolean }>().recorded)).toHaveLength(1);
    expect(answers[0]!.json()).toMatchObject({ song_id: played, podcast_episode_id: null });
    const mine = (await impressionRows(ctx)).filter((r) => r.showing_id === shown.showing_id);
    expect(mine).toEqual([
      {
        ad_id: ad.id,
        user_id: listener.userId,
        song_id: played,
        podcast_episode_id: null,
        showing_id: shown.showing_id,
      },
    ]);
    // A replay later still writes nothing.
    const replay = await postImpression(ctx, listener, { showing_id: shown.showing_id });
    expect(replay.json()).toEqual({ recorded: false, song_id: played, podcast_episode_id: null });
    expect(await impressionRows(ctx)).toHaveLength(before.length + 1);
  });

  it('refuses a deactivated ad, a listener who has since gone premium and an expired showing, writing nothing', async () => {
    const ad = await onlyAd('Changing minds', 10);
    const free = await makeUser(ctx, 'listener', 'Free Ear');
    const upgrading = await makeUser(ctx, 'listener', 'Upgrading Ear');
    const late = await makeUser(ctx, 'listener', 'Late Ear');
    const forFree = (await nextAd(ctx, free))!;
    const forUpgrading = (await nextAd(ctx, upgrading))!;
    const forLate = (await nextAd(ctx, late))!;
    ctx.clock.advance(10_000);
    const before = await impressionRows(ctx);

    await subscribe(ctx, upgrading.userId);
    const premium = await postImpression(ctx, upgrading, { showing_id: forUpgrading.showing_id });
    await refused(premium, 403, 'ad_listener_premium', 'gone premium', before);
    expect(errorOf(premium).message).toBe(adMessages.listenerPremium);

    await setActive(ctx, admin, ad.id, false);
    const inactive = await postImpression(ctx, free, { showing_id: forFree.showing_id });
    await refused(inactive, 409, 'ad_inactive', 'deactivated', before);
    expect(errorOf(inactive).message).toBe(adMessages.adInactive);
    // Reactivated: the same showing counts again.
    await setActive(ctx, admin, ad.id, true);
    const counted = await postImpression(ctx, free, { showing_id: forFree.showing_id });
    expect(counted.json()).toMatchObject({ recorded: true });

    // Issued an hour ago (moved in the database: an hour on the clock would end the sessions).
    await ctx.db.database.db.execute(
      sql`update ad_showings set created_at = created_at - interval '3590 seconds'
          where id = ${forLate.showing_id}`,
    );
    const afterFree = await impressionRows(ctx);
    const expired = await postImpression(ctx, late, { showing_id: forLate.showing_id });
    await refused(expired, 410, 'ad_showing_expired', 'an hour on', afterFree);
    expect(errorOf(expired).message).toBe(adMessages.showingExpired);
  });

  it('gives one listener one paid impression for 200 tries in 43 s of a song never played, then one showing per 10 minutes', async () => {
    await onlyAd('Farmed', 30);
    const farmer = await makeUser(ctx, 'listener', 'Farmer');
    const stranger = await makeUser(ctx, 'listener', 'Stranger');
    // Someone plays a song; the farmer never does.
    await startPlay(ctx, stranger, await song('Never Played By Him'));
    const impressionsBefore = (await impressionRows(ctx)).length;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const tokens = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const asked = await ctx.app.inject({
        method: 'POST',
        url: '/api/ads/showings',
        headers: farmer.headers,
      });
      count(asked.statusCode);
      const ad =
        asked.statusCode === 200 ? asked.json<{ ad: { showing_id: string } | null }>().ad : null;
      if (ad) tokens.add(ad.showing_id);
      for (const showing_id of tokens) {
        const res = await postImpression(ctx, farmer, { showing_id });
        count(res.statusCode);
      }
      ctx.clock.advance(215);
    }
    // One showing (the cap), the rest refused or rate limited: at most one impression.
    expect(tokens.size).toBe(1);
    expect(
      (await impressionRows(ctx)).filter((r) => r.user_id === farmer.userId).length,
    ).toBeLessThanOrEqual(1);
    // Past the rate limit's minute, the one showing counts once, paying no one.
    ctx.clock.advance(60_000);
    for (const showing_id of tokens) await postImpression(ctx, farmer, { showing_id });
    const mine = (await impressionRows(ctx)).filter((r) => r.user_id === farmer.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ song_id: null, podcast_episode_id: null });
    expect((await impressionRows(ctx)).length).toBe(impressionsBefore + 1);
    expect(statuses.get(429)).toBeGreaterThan(100);
    expect(statuses.get(409)).toBeGreaterThan(0);
    expect((await showingRows(ctx)).filter((r) => r.user_id === farmer.userId)).toHaveLength(1);

    // The cap says when: 10 minutes after the showing.
    const capped = await askShowing(ctx, farmer);
    expect(capped.ad).toBeNull();
    const [issued] = await rows<{ at: Date | string }>(
      ctx,
      sql`select created_at as at from ad_showings where user_id = ${farmer.userId}`,
    );
    expect(new Date(capped.next_showing_at!).getTime()).toBe(
      new Date(issued!.at).getTime() + 600_000,
    );
    ctx.clock.advance(new Date(capped.next_showing_at!).getTime() - ctx.clock.now().getTime());
    expect((await askShowing(ctx, farmer)).ad).not.toBeNull();
    expect((await showingRows(ctx)).filter((r) => r.user_id === farmer.userId)).toHaveLength(2);
  });

  it('caps twins: concurrent asks issue one showing', async () => {
    await onlyAd('Twins', 30);
    const listener = await makeUser(ctx, 'listener', 'Twin Asker');
    const answers = await Promise.all(Array.from({ length: 6 }, () => askShowing(ctx, listener)));
    expect(answers.filter((a) => a.ad !== null)).toHaveLength(1);
    expect((await showingRows(ctx)).filter((r) => r.user_id === listener.userId)).toHaveLength(1);
  });

  it('rate limits asking for showings per listener (429), writing no showing', async () => {
    await onlyAd('Asked too often', 30);
    const listener = await makeUser(ctx, 'listener', 'Impatient');
    const answers = [];
    for (let i = 0; i < 11; i++)
      answers.push(
        await ctx.app.inject({
          method: 'POST',
          url: '/api/ads/showings',
          headers: listener.headers,
        }),
      );
    expect(answers.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(answers[10]!.statusCode).toBe(429);
    expect(errorOf(answers[10]!).code).toBe('rate_limited');
    expect((await showingRows(ctx)).filter((r) => r.user_id === listener.userId)).toHaveLength(1);
  });

  it("names no song when the listener's latest play is over (its duration and 10 minutes), and only the latest", async () => {
    await onlyAd('Attributed', 30);
    const listener = await makeUser(ctx, 'listener', 'Attributed Ear');
    const long = await song('A Long One', 600_000);
    const short = await song('A Short One', 60_000);
    await startPlay(ctx, listener, long);
    ctx.clock.advance(1000);
    await startPlay(ctx, listener, short);
    // 60 s of song and 10 minutes of pause later, the short one is over; the long one, older,
    // would still be "within its duration" but is not what the listener last played.
    ctx.clock.advance(60_000 + 600_000 + 1);
    const shown = (await nextAd(ctx, listener))!;
    const [showing] = (await showingRows(ctx)).filter((r) => r.id === shown.showing_id);
    expect(showing).toMatchObject({ song_id: null, podcast_episode_id: null });
  });

  it('names the episode the listener is hearing (its progress reported lately) when that is more recent than their last song', async () => {
    await onlyAd('Between episodes', 30);
    const listener = await makeUser(ctx, 'listener', 'Podcast Ear');
    const [show] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcasts (creator_id, title) values (${artist.userId}, 'Ad Show') returning id`,
    );
    const [episode] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcast_episodes (podcast_id, title, audio_url, duration_ms)
          values (${show!.id}, 'Ad Episode', ${`/media/podcasts/${crypto.randomUUID()}.wav`}, 1800000)
          returning id`,
    );
    const tune = await song('Before The Episode');
    await startPlay(ctx, listener, tune);
    ctx.clock.advance(1000);
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/me/episode-progress/${episode!.id}`,
      headers: listener.headers,
      payload: { position: 60 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = (await nextAd(ctx, listener))!;
    ctx.clock.advance(30_000);
    const res = await postImpression(ctx, listener, { showing_id: shown.showing_id });
    expect(res.json()).toEqual({ recorded: true, song_id: null, podcast_episode_id: episode!.id });
  });

  it('prunes showings past any use (a day old) as new ones are issued, and keeps recent ones', async () => {
    const ad = await onlyAd('Pruned', 30);
    const viewer = await makeUser(ctx, 'listener', 'Old Viewer');
    const at = (hoursAgo: number) =>
      new Date(ctx.clock.now().getTime() - hoursAgo * 3600_000).toISOString();
    const showing = async (hoursAgo: number) =>
      (
        await rows<{ id: string }>(
          ctx,
          sql`insert into ad_showings (ad_id, user_id, duration_ms, created_at)
              values (${ad.id}, ${viewer.userId}, 30000, ${at(hoursAgo)}::timestamptz)
              returning id`,
        )
      )[0]!.id;
    const old = await showing(25);
    const recent = await showing(2);
    // Past the once-a-minute pace of the earlier tests' showings.
    ctx.clock.advance(61_000);
    await askShowing(ctx, await makeUser(ctx, 'listener', 'New Viewer'));
    await expect.poll(async () => (await showingRows(ctx)).map((r) => r.id)).not.toContain(old);
    expect((await showingRows(ctx)).map((r) => r.id)).toContain(recent);
  });
});
