// Scrobbling (docs/decisions/0038) against local fakes of ListenBrainz and Last.fm speaking
// their real protocols: connecting and disconnecting, now playing at a play's start, one
// scrobble per play and service once half the track or 4 minutes was heard (never for a short
// skip), exactly once under repeated and concurrent progress reports, an outage retried until
// delivered once, and a revoked token that disconnects without losing plays or retrying forever.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScrobblingSettings } from '../../src/contracts/scrobbling.contract.ts';
import { lastfmSignature } from '../../src/server/providers/scrobbling/lastfm.provider.ts';
import {
  LASTFM_TEST_KEY,
  LASTFM_TEST_SECRET,
  startFakeLastfm,
  type FakeLastfm,
} from '../helpers/fake-lastfm.ts';
import { startFakeListenBrainz, type FakeListenBrainz } from '../helpers/fake-listenbrainz.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const HOUR = 60 * 60_000;

/** Waits (bounded) until `check` holds; the bound only stops a broken run from hanging. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const give = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > give) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function seedSong(
  ctx: TestContext,
  title: string,
  durationMs: number | null,
  artist = 'Fake Artist',
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, artist, file_url, duration_ms)
        values (${title}, ${artist}, ${`/media/music/seed-${crypto.randomUUID()}.wav`}, ${durationMs})
        returning id`,
  );
  return row!.id;
}

describe.each(dbKinds)('scrobbling on %s', (kind) => {
  let lb: FakeListenBrainz;
  let lfm: FakeLastfm;
  const env: Record<string, string> = {
    SCROBBLE_ALLOW_PRIVATE: '1',
    LASTFM_API_KEY: LASTFM_TEST_KEY,
    LASTFM_API_SECRET: LASTFM_TEST_SECRET,
    JOB_POLL_INTERVAL_MS: '20',
    PLAY_COUNT_FOLD_SECONDS: '0',
  };
  beforeAll(async () => {
    lb = await startFakeListenBrainz();
    lfm = await startFakeLastfm();
    env.LISTENBRAINZ_URL = lb.url;
    env.LASTFM_API_URL = lfm.apiUrl;
    env.LASTFM_AUTH_URL = lfm.url;
  });
  afterAll(async () => {
    await lb?.close();
    await lfm?.close();
  });
  const ctx = useTestApp(kind, env);
  beforeAll(async () => {
    await ctx.jobs.start();
  });

  const call = (
    user: TestUser,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) => ctx.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  const settings = async (user: TestUser) => {
    const res = await call(user, 'GET', '/api/me/scrobbling');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ScrobblingSettings>();
  };

  /** A listener connected to ListenBrainz (a fresh token) and, when asked, Last.fm. */
  async function listener(name: string, { lastfm = false } = {}) {
    const user = await makeUser(ctx, 'listener', name);
    const token = crypto.randomUUID();
    lb.tokens.set(token, `lb-${name}`);
    const res = await call(user, 'PUT', '/api/me/scrobbling/listenbrainz', { token });
    expect(res.statusCode, res.body).toBe(200);
    let sessionKey = '';
    if (lastfm) {
      const started = await call(user, 'POST', '/api/me/scrobbling/lastfm/start');
      expect(started.statusCode, started.body).toBe(200);
      const lfmToken = new URL(started.json<{ auth_url: string }>().auth_url).searchParams.get(
        'token',
      )!;
      lfm.allow(lfmToken, `lfm-${name}`);
      const finished = await call(user, 'POST', '/api/me/scrobbling/lastfm/finish');
      expect(finished.statusCode, finished.body).toBe(200);
      sessionKey = lfm.sessions.get(`lfm-${name}`)!;
    }
    return { user, token, lbName: `lb-${name}`, lfmName: `lfm-${name}`, sessionKey };
  }

  async function startPlay(user: TestUser, songId: string) {
    const res = await call(user, 'POST', '/api/plays', { song_id: songId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; played_at: string }>();
  }

  const report = (user: TestUser, playId: string, ms: number) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/plays/${playId}`,
      headers: user.headers,
      payload: { listened_ms: ms },
    });

  const deliveries = (playId: string) =>
    rows<{ service: string; state: string }>(
      ctx,
      sql`select service, state from scrobble_deliveries where play_id = ${playId} order by service`,
    );

  const scrobblesOf = (lbName: string, playedAt: string) =>
    lb
      .accepted('single', lbName)
      .filter((l) => l.listened_at === Math.floor(Date.parse(playedAt) / 1000));

  const jobsOf = (name: string) =>
    rows<{ state: string; attempts: number; payload: { id: number } }>(
      ctx,
      sql`select state::text as state, attempts, payload from jobs where name = ${name} order by id`,
    );

  it('connects ListenBrainz with a valid token only, keeps it sealed, and disconnects', async () => {
    const user = await makeUser(ctx, 'listener', 'Token Checker');
    const wrong = await call(user, 'PUT', '/api/me/scrobbling/listenbrainz', {
      token: 'not-a-token',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('Invalid ListenBrainz token');
    expect((await settings(user)).listenbrainz).toBeNull();

    const token = crypto.randomUUID();
    lb.tokens.set(token, 'rj');
    const ok = await call(user, 'PUT', '/api/me/scrobbling/listenbrainz', { token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      service: 'listenbrainz',
      status: 'connected',
      account_name: 'rj',
    });
    const [stored] = await rows<{ sealed_secret: string }>(
      ctx,
      sql`select sealed_secret from scrobble_connections where user_id = ${user.userId}`,
    );
    expect(stored!.sealed_secret).not.toContain(token);
    expect((await settings(user)).listenbrainz).toMatchObject({
      status: 'connected',
      account_name: 'rj',
    });

    const gone = await call(user, 'DELETE', '/api/me/scrobbling/listenbrainz');
    expect(gone.statusCode).toBe(204);
    expect((await settings(user)).listenbrainz).toBeNull();
    expect((await ctx.app.inject({ url: '/api/me/scrobbling' })).statusCode).toBe(401);
  });

  it('connects Last.fm by the desktop flow: token, the listener allows, session; signed calls', async () => {
    const user = await makeUser(ctx, 'listener', 'Lastfm Flow');
    expect(await settings(user)).toMatchObject({
      lastfm: null,
      lastfm_available: true,
      lastfm_pending: false,
    });
    expect((await call(user, 'POST', '/api/me/scrobbling/lastfm/finish')).statusCode).toBe(400);

    const started = await call(user, 'POST', '/api/me/scrobbling/lastfm/start');
    expect(started.statusCode, started.body).toBe(200);
    const authUrl = new URL(started.json<{ auth_url: string }>().auth_url);
    expect(authUrl.origin + authUrl.pathname).toBe(`${lfm.url}/api/auth/`);
    expect(authUrl.searchParams.get('api_key')).toBe(LASTFM_TEST_KEY);
    expect((await settings(user)).lastfm_pending).toBe(true);

    const early = await call(user, 'POST', '/api/me/scrobbling/lastfm/finish');
    expect(early.statusCode).toBe(400);
    expect(early.json().error.message).toMatch(/Allow Canto's access on Last\.fm/);

    // The listener opens the page and allows access.
    expect((await fetch(authUrl)).status).toBe(200);
    const finished = await call(user, 'POST', '/api/me/scrobbling/lastfm/finish');
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json()).toMatchObject({
      service: 'lastfm',
      status: 'connected',
      account_name: 'fake-user',
    });
    expect(await settings(user)).toMatchObject({
      lastfm_pending: false,
      lastfm: { status: 'connected' },
    });
    expect(lfm.accepted('auth.getSession').length).toBeGreaterThan(0);
    expect(lfm.badSignatures).toBe(0);

    expect((await call(user, 'DELETE', '/api/me/scrobbling/lastfm')).statusCode).toBe(204);
    expect((await settings(user)).lastfm).toBeNull();
  });

  it('Last.fm down or a sign-in left too long: a clear answer, nothing connected', async () => {
    const user = await makeUser(ctx, 'listener', 'Lastfm Late');
    lfm.failNext(1, 503);
    const down = await call(user, 'POST', '/api/me/scrobbling/lastfm/start');
    expect(down.statusCode).toBe(503);
    expect(down.json().error.code).toBe('service_unavailable');
    expect((await settings(user)).lastfm_pending).toBe(false);

    const started = await call(user, 'POST', '/api/me/scrobbling/lastfm/start');
    expect(started.statusCode, started.body).toBe(200);
    const token = new URL(started.json<{ auth_url: string }>().auth_url).searchParams.get('token')!;
    lfm.allow(token, 'late-user');
    // Last.fm's request tokens last an hour: this one was asked for 61 minutes ago.
    await ctx.db.database.db.execute(
      sql`update scrobble_connections set pending_at = pending_at - interval '61 minutes'
          where user_id = ${user.userId}`,
    );
    const late = await call(user, 'POST', '/api/me/scrobbling/lastfm/finish');
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe('Start connecting Last.fm first');
    expect(await settings(user)).toMatchObject({ lastfm: null, lastfm_pending: false });
  });

  it("the fake refuses a wrong api_sig, so the signatures it accepted are Last.fm's", async () => {
    const params = { method: 'auth.getToken', api_key: LASTFM_TEST_KEY };
    const good = lastfmSignature(params, LASTFM_TEST_SECRET);
    const bad = lastfmSignature(params, 'another secret');
    const ask = (sig: string) =>
      fetch(`${lfm.apiUrl}?${new URLSearchParams({ ...params, api_sig: sig, format: 'json' })}`);
    const before = lfm.badSignatures;
    expect((await (await ask(bad)).json()).error).toBe(13);
    expect(lfm.badSignatures).toBe(before + 1);
    expect((await (await ask(good)).json()).token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends now playing at the start and one scrobble at half the track to each service', async () => {
    const { user, lbName, lfmName } = await listener('Half', { lastfm: true });
    const badBefore = lfm.badSignatures;
    const songId = await seedSong(ctx, 'Half Song', 200_000);
    const play = await startPlay(user, songId);
    await until(
      () =>
        lb
          .accepted('playing_now', lbName)
          .some((l) => l.track_metadata.track_name === 'Half Song') &&
        lfm.accepted('track.updateNowPlaying').some((c) => c.params.track === 'Half Song'),
      'now playing on both',
    );
    const now = lb.accepted('playing_now', lbName).at(-1)!;
    expect(now.track_metadata).toMatchObject({
      artist_name: 'Fake Artist',
      track_name: 'Half Song',
      additional_info: { duration_ms: 200_000, submission_client: 'Canto' },
    });

    expect((await report(user, play.id, 99_000)).statusCode).toBe(200);
    expect(await deliveries(play.id)).toEqual([]);
    expect((await report(user, play.id, 100_000)).statusCode).toBe(200);
    expect((await deliveries(play.id)).map((d) => d.service)).toEqual(['lastfm', 'listenbrainz']);
    await until(
      async () => (await deliveries(play.id)).every((d) => d.state === 'sent'),
      'both deliveries sent',
    );
    expect(scrobblesOf(lbName, play.played_at)).toHaveLength(1);
    const timestamp = String(Math.floor(Date.parse(play.played_at) / 1000));
    const lfmScrobbles = lfm
      .accepted('track.scrobble')
      .filter((c) => c.params.timestamp === timestamp && c.params.sk === lfm.sessions.get(lfmName));
    expect(lfmScrobbles).toHaveLength(1);
    expect(lfmScrobbles[0]!.params).toMatchObject({
      artist: 'Fake Artist',
      track: 'Half Song',
      duration: '200',
    });
    expect(lfm.badSignatures).toBe(badBefore);
  });

  it('scrobbles a long track after 4 minutes, never a short skip or a track under 30 s', async () => {
    const { user, lbName } = await listener('Rules');
    const long = await startPlay(user, await seedSong(ctx, 'Long Song', 900_000));
    await report(user, long.id, 239_999);
    expect(await deliveries(long.id)).toEqual([]);
    await report(user, long.id, 240_000);
    expect(await deliveries(long.id)).toHaveLength(1);

    const skip = await startPlay(user, await seedSong(ctx, 'Skipped Song', 200_000));
    await report(user, skip.id, 15_000);
    const tiny = await startPlay(user, await seedSong(ctx, 'Tiny Song', 20_000));
    await report(user, tiny.id, 20_000);
    expect(await deliveries(skip.id)).toEqual([]);
    expect(await deliveries(tiny.id)).toEqual([]);

    await until(() => scrobblesOf(lbName, long.played_at).length === 1, 'the long song scrobbled');
    const names = lb.accepted('single', lbName).map((l) => l.track_metadata.track_name);
    expect(names).toEqual(['Long Song']);
  });

  it('scrobbles once however often and however concurrently the threshold is reported', async () => {
    const { user, lbName } = await listener('Once');
    const play = await startPlay(user, await seedSong(ctx, 'Once Song', 180_000));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => report(user, play.id, 90_000 + i * 1000)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    for (const ms of [150_000, 180_000, 90_000]) await report(user, play.id, ms);
    expect(await deliveries(play.id)).toHaveLength(1);
    await until(async () => (await deliveries(play.id))[0]!.state === 'sent', 'the delivery sent');
    expect(scrobblesOf(lbName, play.played_at)).toHaveLength(1);
  });

  it('keeps scrobbles through an outage and delivers each once when the service is back', async () => {
    const { user, lbName } = await listener('Outage');
    const play = await startPlay(user, await seedSong(ctx, 'Outage Song', 120_000));
    await until(() => lb.accepted('playing_now', lbName).length === 1, 'now playing sent');
    const refusedBefore = lb.requests.filter((r) => r.status === 503).length;
    lb.failNext(3, 503);
    await report(user, play.id, 60_000);
    // Each failed attempt waits for its backoff on the app's clock: move it past each wait.
    // (Never while an attempt runs: its lease would expire with the move.)
    const idle = async () => (await jobsOf('scrobble.deliver')).every((j) => j.state !== 'running');
    for (let moved = 0; ; moved++) {
      if (moved > 10) throw new Error('the scrobble was never delivered');
      const seen = lb.requests.filter((r) => r.status === 503).length;
      await until(
        async () =>
          (await deliveries(play.id))[0]?.state === 'sent' ||
          (lb.requests.filter((r) => r.status === 503).length > seen && (await idle())),
        'an attempt to finish',
      );
      if ((await deliveries(play.id))[0]?.state === 'sent') break;
      ctx.clock.advance(2 * HOUR);
    }
    await until(idle, 'the last attempt to be recorded');
    expect(lb.requests.filter((r) => r.status === 503).length - refusedBefore).toBe(3);
    await until(async () => (await deliveries(play.id))[0]!.state === 'sent', 'the delivery sent');
    expect(scrobblesOf(lbName, play.played_at)).toHaveLength(1);
    const [delivery] = await rows<{ id: number }>(
      ctx,
      sql`select id from scrobble_deliveries where play_id = ${play.id}`,
    );
    const job = (await jobsOf('scrobble.deliver')).find(
      (j) => Number(j.payload.id) === Number(delivery!.id),
    )!;
    expect(job).toMatchObject({ state: 'done', attempts: 4 });
  });

  it('a revoked token disconnects, keeps the play, ends the job, and resends after reconnect', async () => {
    const { user, token, lbName } = await listener('Revoked');
    const play = await startPlay(user, await seedSong(ctx, 'Revoked Song', 100_000));
    // Revoked once now playing went through: refused, that job would disconnect first and the
    // report would have no connection left to scrobble to.
    await until(() => lb.accepted('playing_now', lbName).length === 1, 'now playing sent');
    lb.revoke(token);
    await report(user, play.id, 50_000);
    await until(async () => (await deliveries(play.id))[0]?.state === 'held', 'the scrobble held');
    const view = await settings(user);
    expect(view.listenbrainz).toMatchObject({
      status: 'disconnected',
      held: 1,
      account_name: lbName,
    });
    expect(view.listenbrainz!.last_error).toMatch(/401/);
    const [delivery] = await rows<{ id: number }>(
      ctx,
      sql`select id from scrobble_deliveries where play_id = ${play.id}`,
    );
    const job = (await jobsOf('scrobble.deliver')).find(
      (j) => Number(j.payload.id) === Number(delivery!.id),
    )!;
    expect(job).toMatchObject({ state: 'done', attempts: 1 });
    const [kept] = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from stream_analytics where id = ${play.id} and listened_ms = 50000`,
    );
    expect(kept!.n).toBe(1);
    // A play while disconnected is not queued for the service at all.
    const later = await startPlay(user, await seedSong(ctx, 'While Disconnected', 100_000));
    await report(user, later.id, 100_000);
    expect(await deliveries(later.id)).toEqual([]);

    const fresh = crypto.randomUUID();
    lb.tokens.set(fresh, lbName);
    const again = await call(user, 'PUT', '/api/me/scrobbling/listenbrainz', { token: fresh });
    expect(again.json()).toMatchObject({ status: 'connected', last_error: null });
    await until(() => scrobblesOf(lbName, play.played_at).length === 1, 'the held scrobble resent');
    expect((await settings(user)).listenbrainz!.held).toBe(0);
  });

  it("Last.fm's invalid session (error 9) disconnects Last.fm only", async () => {
    const { user, lbName, sessionKey } = await listener('Lfm Revoked', { lastfm: true });
    const nowPlayingBefore = lfm.accepted('track.updateNowPlaying').length;
    const play = await startPlay(user, await seedSong(ctx, 'Lfm Revoked Song', 100_000));
    // Revoked once now playing went through, as in the ListenBrainz case.
    await until(
      () => lfm.accepted('track.updateNowPlaying').length > nowPlayingBefore,
      'now playing sent',
    );
    lfm.revoke(sessionKey);
    await report(user, play.id, 100_000);
    await until(
      async () => (await deliveries(play.id)).every((d) => d.state !== 'pending'),
      'both deliveries settled',
    );
    expect(await deliveries(play.id)).toEqual([
      { service: 'lastfm', state: 'held' },
      { service: 'listenbrainz', state: 'sent' },
    ]);
    const view = await settings(user);
    expect(view.lastfm).toMatchObject({ status: 'disconnected', held: 1 });
    expect(view.lastfm!.last_error).toMatch(/error 9/);
    expect(view.listenbrainz).toMatchObject({ status: 'connected' });
    expect(scrobblesOf(lbName, play.played_at)).toHaveLength(1);
  });

  it('plays a Subsonic app reports afterwards are scrobbled through the same path', async () => {
    const { user, lbName } = await listener('Phone');
    const songId = await seedSong(ctx, 'Phone Song', 150_000);
    const created = await call(user, 'POST', '/api/me/subsonic/passwords', { name: 'Phone' });
    expect(created.statusCode, created.body).toBe(201);
    const at = ctx.clock.now().getTime() - 3_600_000;
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/rest/scrobble.view?${new URLSearchParams({
        v: '1.16.1',
        c: 'test',
        f: 'json',
        apiKey: created.json<{ password: string }>().password,
        id: songId,
        time: String(at),
        submission: 'true',
      })}`,
    });
    expect(res.json()['subsonic-response'].status, res.body).toBe('ok');
    await until(
      () => lb.accepted('single', lbName).some((l) => l.listened_at === Math.floor(at / 1000)),
      'the phone play scrobbled',
    );
  });

  it('a play heard offline and sent twice is scrobbled once, at the time it was heard', async () => {
    const { user, lbName } = await listener('Plane');
    const songId = await seedSong(ctx, 'Plane Song', 150_000);
    const playId = crypto.randomUUID();
    const startedAt = new Date(ctx.clock.now().getTime() - 7_200_000).toISOString();
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/offline-plays/${playId}`,
        headers: user.headers,
        payload: { song_id: songId, started_at: startedAt, listened_ms: 150_000 },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    await until(
      async () => scrobblesOf(lbName, startedAt).length > 0,
      'the offline play scrobbled',
    );
    await until(
      async () => (await deliveries(playId)).every((d) => d.state === 'sent'),
      'the delivery marked sent',
    );
    expect(await deliveries(playId)).toEqual([{ service: 'listenbrainz', state: 'sent' }]);
    expect(scrobblesOf(lbName, startedAt)).toHaveLength(1);
  });
});
