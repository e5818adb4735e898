import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserStats } from '../../src/contracts/listening.contract.ts';
import { createPlaysRepository } from '../../src/server/modules/listening/plays.repository.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp, signUp } from './auth-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const DAY = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SIGNED_AUDIO = /^\/media\/music\/seed-[\w-]+\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/;

type Seed = {
  title: string;
  artist?: string | null;
  genre?: string | null;
  durationMs?: number | null;
};

async function seedSong(ctx: TestContext, s: Seed): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, artist, genre, file_url, duration_ms)
        values (${s.title}, ${s.artist ?? null}, ${s.genre ?? null},
                ${`/media/music/seed-${crypto.randomUUID()}.wav`},
                ${s.durationMs === undefined ? 100_000 : s.durationMs})
        returning id`,
  );
  return row!.id;
}

async function playRow(ctx: TestContext, id: string) {
  const [row] = await rows<{
    user_id: string;
    song_id: string;
    listened_ms: number;
    completed: boolean;
    played_at: Date | string;
  }>(
    ctx,
    sql`select user_id, song_id, listened_ms, completed, played_at from stream_analytics where id = ${id}`,
  );
  return row;
}

/** Moves the pending plays into songs.play_count now, as the app's periodic fold does. */
async function fold(ctx: TestContext, batch = 10_000): Promise<number> {
  return createPlaysRepository(ctx.db.database.db).foldPlayCounts(batch);
}

/** songs.play_count as stored, pending plays not folded in. */
async function storedPlayCount(ctx: TestContext, songId: string): Promise<number> {
  const [row] = await rows<{ n: string | number }>(
    ctx,
    sql`select play_count as n from songs where id = ${songId}`,
  );
  return Number(row!.n);
}

async function pendingPlays(ctx: TestContext): Promise<number> {
  const [row] = await rows<{ n: string | number }>(
    ctx,
    sql`select count(*) as n from play_count_deltas`,
  );
  return Number(row!.n);
}

/** songs.play_count once every pending play is folded in. */
async function playCount(ctx: TestContext, songId: string): Promise<number> {
  while ((await fold(ctx)) > 0);
  const [row] = await rows<{ n: string | number }>(
    ctx,
    sql`select play_count as n from songs where id = ${songId}`,
  );
  return Number(row!.n);
}

async function countPlays(ctx: TestContext): Promise<number> {
  const [row] = await rows<{ n: string | number }>(
    ctx,
    sql`select count(*) as n from stream_analytics`,
  );
  return Number(row!.n);
}

describe.each(dbKinds)('listening records, recently played, stats on %s', (kind) => {
  // Plays are folded by hand here, so each step sees exactly what it asked for.
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '0' });
  let listener: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Listener');
    other = await makeUser(ctx, 'listener', 'Other');
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    user: TestUser | null,
    payload?: object,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: user ? user.headers : {},
      ...(payload ? { payload } : {}),
    });
  const start = (songId: string, user: TestUser = listener) =>
    call('POST', '/api/plays', user, { song_id: songId });
  const report = (playId: string, listenedMs: number, user: TestUser = listener) =>
    call('PATCH', `/api/plays/${playId}`, user, { listened_ms: listenedMs });

  describe('stream records', () => {
    it('starting a play writes the record at the clock’s time and raises play_count by one', async () => {
      const song = await seedSong(ctx, { title: 'Start Me' });
      const res = await start(song);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.id).toMatch(UUID);
      expect(body.played_at).toBe(ctx.clock.now().toISOString());
      const row = await playRow(ctx, body.id);
      expect(row).toMatchObject({
        user_id: listener.userId,
        song_id: song,
        listened_ms: 0,
        completed: false,
      });
      expect(new Date(row!.played_at).toISOString()).toBe(body.played_at);
      expect(await playCount(ctx, song)).toBe(1);
      // One more per record, however many a user starts.
      expect((await start(song)).statusCode).toBe(201);
      expect((await start(song, other)).statusCode).toBe(201);
      expect(await playCount(ctx, song)).toBe(3);
    });

    it('a start or report relaxes only its own commit: the connection keeps synchronous commits', async () => {
      const song = await seedSong(ctx, { title: 'Durable Enough', durationMs: 100_000 });
      for (let i = 0; i < 5; i++) {
        const { id } = (await start(song)).json();
        expect((await report(id, 10_000 * (i + 1))).statusCode).toBe(200);
      }
      // Every pooled connection at once (a settled pool holds each one idle).
      const settings = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const result = (await ctx.db.database.db.execute(
            sql`select current_setting('synchronous_commit') as value, pg_sleep(0.02)`,
          )) as unknown as { rows: Array<{ value: string }> };
          return result.rows[0]!.value;
        }),
      );
      expect(new Set(settings)).toEqual(new Set(['on']));
    });

    it('progress is clamped to the song’s length, never goes down, completes at 90 % and stays completed', async () => {
      const song = await seedSong(ctx, { title: 'Hundred Seconds', durationMs: 100_000 });
      const { id } = (await start(song)).json();
      const steps: Array<[number, number, boolean]> = [
        [30_000, 30_000, false],
        [20_000, 30_000, false], // lower report: the kept total stays
        [89_999, 89_999, false],
        [90_000, 90_000, true], // exactly 90 %
        [500_000, 100_000, true], // beyond the end: clamped to the duration
        [0, 100_000, true],
      ];
      for (const [sent, kept, completed] of steps) {
        const res = await report(id, sent);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ id, listened_ms: kept, completed });
        expect(await playRow(ctx, id)).toMatchObject({ listened_ms: kept, completed });
      }
      // Sticky: a song re-measured longer later does not take the completion back.
      await ctx.db.database.db.execute(
        sql`update songs set duration_ms = 1000000 where id = ${song}`,
      );
      expect((await report(id, 100_001)).json()).toEqual({
        id,
        listened_ms: 100_001,
        completed: true,
      });
      // Reports change nothing but the play: the play count stays one per record.
      expect(await playCount(ctx, song)).toBe(1);
    });

    it('a song of unknown length keeps the highest report and never completes', async () => {
      const song = await seedSong(ctx, { title: 'No Length', durationMs: null });
      const { id } = (await start(song)).json();
      expect((await report(id, 5_000)).json()).toEqual({
        id,
        listened_ms: 5_000,
        completed: false,
      });
      expect((await report(id, 4_000)).json()).toEqual({
        id,
        listened_ms: 5_000,
        completed: false,
      });
    });

    it('another user’s play answers 404 play_not_found and is left unchanged', async () => {
      const song = await seedSong(ctx, { title: 'Mine' });
      const { id } = (await start(song)).json();
      await report(id, 10_000);
      const res = await report(id, 95_000, other);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('play_not_found');
      expect(await playRow(ctx, id)).toMatchObject({
        user_id: listener.userId,
        listened_ms: 10_000,
        completed: false,
      });
      // A play that does not exist answers the same.
      const missing = await report(crypto.randomUUID(), 1_000);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('play_not_found');
    });

    it('an unknown song answers 404 song_not_found and writes nothing', async () => {
      const before = await countPlays(ctx);
      const res = await start(crypto.randomUUID());
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('song_not_found');
      expect(await countPlays(ctx)).toBe(before);
    });

    it('signed-out callers get 401 and nothing is written', async () => {
      const song = await seedSong(ctx, { title: 'Anonymous' });
      const { id } = (await start(song)).json();
      const before = await countPlays(ctx);
      for (const [method, url, payload] of [
        ['POST', '/api/plays', { song_id: song }],
        ['PATCH', `/api/plays/${id}`, { listened_ms: 50_000 }],
        ['GET', '/api/me/recently-played', undefined],
        ['GET', '/api/me/stats', undefined],
        ['GET', '/api/subscription', undefined],
      ] as const) {
        const res = await call(method, url, null, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
      expect(await countPlays(ctx)).toBe(before);
      expect(await playCount(ctx, song)).toBe(1);
      expect(await playRow(ctx, id)).toMatchObject({ listened_ms: 0 });
    });

    it('bad input is a 400 validation_failed that changes nothing', async () => {
      const song = await seedSong(ctx, { title: 'Bad Input' });
      const { id } = (await start(song)).json();
      const cases: Array<[string, string, object]> = [
        ['POST', '/api/plays', { song_id: 'not-a-uuid' }],
        ['POST', '/api/plays', {}],
        ['PATCH', `/api/plays/${id}`, { listened_ms: -1 }],
        ['PATCH', `/api/plays/${id}`, { listened_ms: 1.5 }],
        ['PATCH', `/api/plays/${id}`, { listened_ms: '5000' }],
        ['PATCH', `/api/plays/${id}`, { listened_ms: 2 ** 31 }],
        ['PATCH', '/api/plays/not-a-uuid', { listened_ms: 5 }],
      ];
      for (const [method, url, payload] of cases) {
        const res = await call(method as 'POST' | 'PATCH', url, listener, payload);
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
      expect(await playRow(ctx, id)).toMatchObject({ listened_ms: 0, completed: false });
      expect(await playCount(ctx, song)).toBe(1);
    });

    it.runIf(kind === 'postgres')(
      'concurrent reports keep the highest (rows are locked while read)',
      async () => {
        const song = await seedSong(ctx, { title: 'Race', durationMs: 1_000_000 });
        const { id } = (await start(song)).json();
        const values = Array.from({ length: 24 }, (_, i) => ((i * 7919) % 24) * 10_000);
        const answers = await Promise.all(values.map((v) => report(id, v)));
        expect(answers.every((r) => r.statusCode === 200)).toBe(true);
        expect(await playRow(ctx, id)).toMatchObject({ listened_ms: Math.max(...values) });
      },
    );
  });

  describe('play counts (folded in batches, ADR 0016)', () => {
    it('a start leaves the song row alone; the fold adds every play exactly once', async () => {
      const a = await seedSong(ctx, { title: 'Fold A' });
      const b = await seedSong(ctx, { title: 'Fold B' });
      const [xminBefore] = await rows<{ xmin: string }>(
        ctx,
        sql`select xmin::text from songs where id = ${a}`,
      );
      for (let i = 0; i < 5; i++) expect((await start(a)).statusCode).toBe(201);
      for (let i = 0; i < 3; i++) expect((await start(b, other)).statusCode).toBe(201);
      // The starts wrote plays and pending counts, never the songs row (no update of it).
      const [xminAfter] = await rows<{ xmin: string }>(
        ctx,
        sql`select xmin::text from songs where id = ${a}`,
      );
      expect(xminAfter!.xmin).toBe(xminBefore!.xmin);
      expect(await storedPlayCount(ctx, a)).toBe(0);
      expect(await pendingPlays(ctx)).toBeGreaterThanOrEqual(8);
      // In batches smaller than what is pending: each batch moves its plays once.
      while ((await fold(ctx, 3)) > 0);
      expect(await pendingPlays(ctx)).toBe(0);
      expect(await storedPlayCount(ctx, a)).toBe(5);
      expect(await storedPlayCount(ctx, b)).toBe(3);
      expect(await fold(ctx)).toBe(0);
      expect(await storedPlayCount(ctx, a)).toBe(5);
    });

    it('an unknown song writes no pending count either', async () => {
      while ((await fold(ctx)) > 0);
      expect((await start(crypto.randomUUID())).statusCode).toBe(404);
      expect(await pendingPlays(ctx)).toBe(0);
    });

    it('a song deleted before the fold loses its pending plays and the fold goes on', async () => {
      const gone = await seedSong(ctx, { title: 'Gone Before Fold' });
      const kept = await seedSong(ctx, { title: 'Kept Through Fold' });
      await start(gone);
      await start(kept);
      await ctx.db.database.db.execute(sql`delete from songs where id = ${gone}`);
      while ((await fold(ctx)) > 0);
      expect(await pendingPlays(ctx)).toBe(0);
      expect(await storedPlayCount(ctx, kept)).toBe(1);
    });

    it('popular ordering follows the plays once folded', async () => {
      const user = await makeUser(ctx, 'listener', 'Popular Listener');
      const tag = crypto.randomUUID().slice(0, 8);
      const low = await seedSong(ctx, { title: `Pop ${tag} Low` });
      const high = await seedSong(ctx, { title: `Pop ${tag} High` });
      await ctx.db.database.db.execute(
        sql`update songs set play_count = 1000000 where id in (${low}, ${high})`,
      );
      for (let i = 0; i < 2; i++) await start(low, user);
      for (let i = 0; i < 4; i++) await start(high, user);
      while ((await fold(ctx)) > 0);
      const res = await call('GET', '/api/songs/home', user);
      const popular = res.json().popular as Array<{ id: string; play_count: number }>;
      expect(popular.slice(0, 2).map((s) => [s.id, s.play_count])).toEqual([
        [high, 1_000_004],
        [low, 1_000_002],
      ]);
    });

    it.runIf(kind === 'postgres')(
      'concurrent starts and concurrent folds count every play once, without deadlock',
      async () => {
        const songs = await Promise.all(
          [0, 1, 2].map((i) => seedSong(ctx, { title: `Concurrent Fold ${i}` })),
        );
        while ((await fold(ctx)) > 0);
        const starts = Array.from({ length: 90 }, (_, i) =>
          start(songs[i % 3]!, i % 2 ? listener : other),
        );
        // Folds race the starts and each other, in small batches that overlap the same songs.
        const folds = Array.from({ length: 12 }, async () => {
          for (let j = 0; j < 5; j++) await fold(ctx, 4);
        });
        const answers = await Promise.all(starts);
        await Promise.all(folds);
        expect(answers.every((r) => r.statusCode === 201)).toBe(true);
        while ((await fold(ctx)) > 0);
        for (const song of songs) expect(await storedPlayCount(ctx, song)).toBe(30);
      },
    );
  });

  describe('recently played', () => {
    it('is the caller’s last 20 plays, newest first, with signed song URLs', async () => {
      const user = await makeUser(ctx, 'listener', 'Recent Listener');
      const songs: string[] = [];
      for (let i = 0; i < 5; i++)
        songs.push(await seedSong(ctx, { title: `Recent ${i}`, artist: 'R', genre: 'Pop' }));
      const plays: Array<{ id: string; played_at: string; song: string }> = [];
      for (let i = 0; i < 22; i++) {
        ctx.clock.advance(1000);
        const song = songs[i % songs.length]!;
        const res = await start(song, user);
        expect(res.statusCode).toBe(201);
        plays.push({ ...res.json(), song });
        // Another user's plays in between are not the caller's.
        if (i % 5 === 0) await start(song, other);
      }
      const res = await call('GET', '/api/me/recently-played', user);
      expect(res.statusCode).toBe(200);
      const { items } = res.json() as {
        items: Array<{ play_id: string; played_at: string; song: Record<string, unknown> }>;
      };
      const expected = plays.slice(-20).reverse();
      expect(items.map((i) => i.play_id)).toEqual(expected.map((p) => p.id));
      expect(items.map((i) => i.played_at)).toEqual(expected.map((p) => p.played_at));
      expect(items.map((i) => i.song.id)).toEqual(expected.map((p) => p.song));
      for (const item of items) {
        expect(item.song.file_url).toMatch(SIGNED_AUDIO);
        expect(item.song).toMatchObject({ artist: 'R', genre: 'Pop', duration: 100 });
      }
    });

    it('lists podcast episodes among songs: an episode start writes its record, and a bad one nothing', async () => {
      const user = await makeUser(ctx, 'listener', 'Podcast Fan');
      const creator = await makeUser(ctx, 'artist', 'Show Maker');
      const [show] = await rows<{ id: string }>(
        ctx,
        sql`insert into podcasts (creator_id, title) values (${creator.userId}, 'Late Show') returning id`,
      );
      const [episode] = await rows<{ id: string }>(
        ctx,
        sql`insert into podcast_episodes (podcast_id, title, audio_url, audio_key, duration_ms)
            values (${show!.id}, 'Pilot', ${`/media/podcasts/e-${crypto.randomUUID()}.wav`},
              'podcasts/e.wav', 60000)
            returning id`,
      );
      const song = await seedSong(ctx, { title: 'Between Episodes' });
      ctx.clock.advance(1000);
      const heard = await call('POST', '/api/plays', user, { episode_id: episode!.id });
      expect(heard.statusCode, heard.body).toBe(201);
      // Its progress is reported as a song's is, clamped to the episode's length.
      const progress = await report(heard.json().id, 90_000, user);
      expect(progress.json()).toMatchObject({ listened_ms: 60_000, completed: true });
      ctx.clock.advance(1000);
      expect((await start(song, user)).statusCode).toBe(201);

      const before = await countPlays(ctx);
      for (const body of [
        { episode_id: crypto.randomUUID() },
        { episode_id: episode!.id, song_id: song },
        { episode_id: 'nope' },
        {},
      ]) {
        const res = await call('POST', '/api/plays', user, body);
        expect([400, 404], JSON.stringify(body)).toContain(res.statusCode);
      }
      expect(await countPlays(ctx)).toBe(before);

      const res = await call('GET', '/api/me/recently-played', user);
      const { items } = res.json() as {
        items: Array<{ kind: string; song?: { id: string }; episode?: Record<string, unknown> }>;
      };
      expect(items.map((i) => i.kind)).toEqual(['song', 'episode']);
      expect(items[0]!.song!.id).toBe(song);
      expect(items[1]!.episode).toMatchObject({
        id: episode!.id,
        title: 'Pilot',
        podcast_id: show!.id,
        podcast_title: 'Late Show',
        duration: 60,
      });
    });

    it('is empty for a listener who has played nothing', async () => {
      const user = await makeUser(ctx, 'listener', 'Quiet');
      const res = await call('GET', '/api/me/recently-played', user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ items: [] });
    });
  });

  describe('subscription check', () => {
    it('is false without a subscription, true with a current active one, false once ended or canceled', async () => {
      const user = await makeUser(ctx, 'listener', 'Subscriber');
      const check = async () => {
        const res = await call('GET', '/api/subscription', user);
        expect(res.statusCode).toBe(200);
        return res.json();
      };
      expect(await check()).toEqual({ subscribed: false });
      const now = ctx.clock.now().getTime();
      const insert = (status: string, startMs: number, endMs: number) =>
        ctx.db.database.db.execute(sql`
          insert into subscriptions (user_id, provider, status, current_period_start, current_period_end)
          values (${user.userId}, 'local', ${status}::subscription_status,
                  ${new Date(startMs).toISOString()}::timestamptz, ${new Date(endMs).toISOString()}::timestamptz)`);
      // An active period that already ended, and a canceled one still in its period.
      await insert('active', now - 40 * DAY, now - DAY);
      await insert('canceled', now - DAY, now + 20 * DAY);
      expect(await check()).toEqual({ subscribed: false });
      await insert('active', now - DAY, now + 29 * DAY);
      expect(await check()).toEqual({ subscribed: true });
      // Someone else's subscription is not the caller's.
      expect((await call('GET', '/api/subscription', other)).json()).toEqual({ subscribed: false });
    });
  });

  describe('running totals (ADR 0016)', () => {
    // Each seed is one random sequence of starts, reports (higher, lower, beyond the end),
    // other listeners' plays in between, and a song deleted with its plays.
    it.each([1, 7, 42, 2026])(
      'after random starts and reports they equal a GROUP BY over stream_analytics (seed %i)',
      async (seed) => {
        const next = random(seed);
        const pickOf = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
        const users = [
          await makeUser(ctx, 'listener', `Totals A ${seed}`),
          await makeUser(ctx, 'listener', `Totals B ${seed}`),
        ];
        const specs: Seed[] = [
          { title: 'T1', artist: 'Ann', genre: 'Rock', durationMs: 100_000 },
          { title: 'T2', artist: 'Ann', genre: 'rock ', durationMs: 50_000 },
          { title: 'T3', artist: 'Bob', genre: 'Jazz', durationMs: 200_000 },
          { title: 'T4', artist: null, genre: null, durationMs: 30_000 },
          { title: 'T5', artist: ' ', genre: '', durationMs: null },
          { title: 'T6', artist: 'Cy', genre: 'Hip Hop', durationMs: 60_000 },
        ];
        const songs: string[] = [];
        for (const spec of specs) songs.push(await seedSong(ctx, spec));
        const plays: Array<{ id: string; user: TestUser }> = [];
        for (let step = 0; step < 60; step++) {
          const user = pickOf(users);
          if (plays.length === 0 || next() < 0.4) {
            const res = await start(pickOf(songs), user);
            expect(res.statusCode).toBe(201);
            plays.push({ id: res.json().id, user });
          } else {
            const play = pickOf(plays);
            const res = await report(play.id, Math.floor(next() * 250_000), play.user);
            expect(res.statusCode).toBe(200);
          }
        }
        const ids = users.map((u) => u.userId);
        expect(await keptTotals(ctx, ids)).toEqual(await foldedTotals(ctx, ids));

        // A song's deletion takes its plays away, and its figures with them.
        await ctx.db.database.db.execute(sql`delete from songs where id = ${songs[0]}`);
        const kept = await keptTotals(ctx, ids);
        expect(kept).toEqual(await foldedTotals(ctx, ids));
        // The migration's backfill computes the same from scratch.
        await ctx.db.database.db.execute(sql`select listening_totals_rebuild()`);
        expect(await keptTotals(ctx, ids)).toEqual(kept);
      },
    );

    it('a report that raises nothing changes no total, and a raise adds only its delta', async () => {
      const user = await makeUser(ctx, 'listener', 'Delta');
      const song = await seedSong(ctx, { title: 'Delta Song', artist: 'Dee', genre: 'Pop' });
      const { id } = (await start(song, user)).json();
      await report(id, 40_000, user);
      await report(id, 30_000, user); // lower: kept at 40,000
      await report(id, 95_000, user); // +55,000 and completed
      await report(id, 99_000, user); // +4,000, already completed
      const kept = await keptTotals(ctx, [user.userId]);
      expect(kept.totals).toEqual([
        { user_id: user.userId, streams: 1, completed: 1, listened_ms: 99_000 },
      ]);
      expect(kept.artists).toEqual([
        { user_id: user.userId, name: 'Dee', streams: 1, listened_ms: 99_000 },
      ]);
      expect(kept.genres).toEqual([{ user_id: user.userId, genre: 'pop', count: 1 }]);
    });

    it.runIf(kind === 'postgres')(
      'concurrent reports of one play add its highest total once (no delta counted twice)',
      async () => {
        const user = await makeUser(ctx, 'listener', 'Racing Totals');
        const song = await seedSong(ctx, { title: 'Race Totals', durationMs: 1_000_000 });
        for (let round = 0; round < 5; round++) {
          const { id } = (await start(song, user)).json();
          // Pairs that race: equal reports, and a higher and a lower one.
          const pair = round % 2 ? [500_000, 500_000] : [300_000 + round, 950_000];
          const answers = await Promise.all(pair.map((v) => report(id, v, user)));
          expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
        }
        const kept = await keptTotals(ctx, [user.userId]);
        // 950,000 × 3 (completed) + 500,000 × 2.
        expect(kept.totals).toEqual([
          { user_id: user.userId, streams: 5, completed: 3, listened_ms: 3_850_000 },
        ]);
        expect(kept).toEqual(await foldedTotals(ctx, [user.userId]));
      },
    );
  });

  describe('listener totals folded in batches (ADR 0016)', () => {
    const empty = { totals: [], songs: [], artists: [], genres: [] };

    it('a start and its reports only append; the fold applies them exactly once', async () => {
      const user = await makeUser(ctx, 'listener', 'Pending Totals');
      const song = await seedSong(ctx, { title: 'Pending', artist: 'Pia', genre: 'Soul' });
      const { id } = (await start(song, user)).json();
      await report(id, 95_000, user);
      await report(id, 20_000, user); // lower: appends nothing
      expect(await storedTotals(ctx, [user.userId])).toEqual(empty);
      expect(await pendingTotals(ctx, user.userId)).toBe(2);

      while ((await foldTotals(ctx)) > 0);
      const once = await storedTotals(ctx, [user.userId]);
      expect(once.totals).toEqual([
        { user_id: user.userId, streams: 1, completed: 1, listened_ms: 95_000 },
      ]);
      expect(once.artists).toEqual([
        { user_id: user.userId, name: 'Pia', streams: 1, listened_ms: 95_000 },
      ]);
      expect(await pendingTotals(ctx, user.userId)).toBe(0);
      // Folding again finds nothing and changes nothing.
      expect(await foldTotals(ctx)).toBe(0);
      expect(await storedTotals(ctx, [user.userId])).toEqual(once);
      expect(once).toEqual(await foldedTotals(ctx, [user.userId]));
    });

    it('batches of one apply the changes in the order they were written', async () => {
      const user = await makeUser(ctx, 'listener', 'One By One');
      const song = await seedSong(ctx, { title: 'Ordered', artist: 'Ola', durationMs: 100_000 });
      const ids: string[] = [];
      for (let k = 0; k < 3; k++) {
        const { id } = (await start(song, user)).json();
        ids.push(id);
        await report(id, 50_000 + k * 20_000, user);
      }
      // A deletion's change comes after the start and reports it takes back.
      await ctx.db.database.db.execute(sql`delete from stream_analytics where id = ${ids[0]}`);
      while ((await foldTotals(ctx, 1)) > 0);
      expect(await storedTotals(ctx, [user.userId])).toEqual(
        await foldedTotals(ctx, [user.userId]),
      );
    });

    it('a fold that fails midway (rolled back) loses nothing and counts nothing twice', async () => {
      const user = await makeUser(ctx, 'listener', 'Crashed Fold');
      const song = await seedSong(ctx, { title: 'Survivor', artist: 'Sam', genre: 'Rock' });
      for (let k = 0; k < 3; k++) {
        const { id } = (await start(song, user)).json();
        await report(id, 10_000 * (k + 1), user);
      }
      const crash = new Error('process died mid-fold');
      await expect(
        ctx.db.database.db.transaction(async (tx) => {
          await tx.execute(sql`select listening_totals_fold(10000)`);
          throw crash;
        }),
      ).rejects.toBe(crash);
      expect(await storedTotals(ctx, [user.userId])).toEqual(empty);
      expect(await pendingTotals(ctx, user.userId)).toBe(6);
      const kept = await keptTotals(ctx, [user.userId]);
      expect(kept.totals).toEqual([
        { user_id: user.userId, streams: 3, completed: 0, listened_ms: 60_000 },
      ]);
      expect(kept).toEqual(await foldedTotals(ctx, [user.userId]));
    });

    it('a listener deleted with changes pending is dropped and the fold goes on', async () => {
      const gone = await makeUser(ctx, 'listener', 'Gone Listener');
      const stays = await makeUser(ctx, 'listener', 'Staying Listener');
      const song = await seedSong(ctx, { title: 'Left Behind', artist: 'Lee' });
      await start(song, gone);
      await start(song, stays);
      await ctx.db.database.db.execute(sql`delete from users where id = ${gone.userId}`);
      // One change at a time: the deleted listener's start is applied alone, before the
      // deletion's change that cancels it.
      while ((await foldTotals(ctx, 1)) > 0);
      expect(await pendingTotals(ctx)).toBe(0);
      expect(await storedTotals(ctx, [gone.userId])).toEqual(empty);
      expect((await storedTotals(ctx, [stays.userId])).totals).toEqual([
        { user_id: stays.userId, streams: 1, completed: 0, listened_ms: 0 },
      ]);
    });

    it('a listener’s stats include their own pending plays; others’ stay pending', async () => {
      const user = await makeUser(ctx, 'listener', 'Fresh Stats');
      const bystander = await makeUser(ctx, 'listener', 'Bystander');
      const song = await seedSong(ctx, { title: 'Fresh', artist: 'Fay', durationMs: 100_000 });
      const { id } = (await start(song, user)).json();
      await report(id, 100_000, user);
      await start(song, bystander);
      const res = await call('GET', '/api/me/stats', user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        totalStreams: 1,
        completedStreams: 1,
        completionRate: 100,
        topArtists: [{ name: 'Fay', streams: 1 }],
        topSongs: [{ title: 'Fresh', plays: 1 }],
      });
      expect(await pendingTotals(ctx, user.userId)).toBe(0);
      expect(await pendingTotals(ctx, bystander.userId)).toBe(1);
    });

    it.runIf(kind === 'postgres')(
      'folds racing starts, reports and each other never lose or double count a change',
      async () => {
        const users = [
          await makeUser(ctx, 'listener', 'Race Fold A'),
          await makeUser(ctx, 'listener', 'Race Fold B'),
          await makeUser(ctx, 'listener', 'Race Fold C'),
        ];
        const songs = [
          await seedSong(ctx, { title: 'RF1', artist: 'Ria', genre: 'Pop', durationMs: 100_000 }),
          await seedSong(ctx, { title: 'RF2', artist: 'Rob', genre: 'Jazz', durationMs: 50_000 }),
        ];
        const folds = new Set<Promise<unknown>>();
        let stop = false;
        const folder = async (batch: number) => {
          while (!stop) await foldTotals(ctx, batch);
        };
        const statsReader = async (user: TestUser) => {
          while (!stop) expect((await call('GET', '/api/me/stats', user)).statusCode).toBe(200);
        };
        folds.add(folder(3));
        folds.add(folder(7));
        folds.add(statsReader(users[0]!));
        const writers = users.map(async (user, u) => {
          for (let k = 0; k < 15; k++) {
            const res = await start(songs[(k + u) % 2]!, user);
            expect(res.statusCode).toBe(201);
            const { id } = res.json();
            const answers = await Promise.all([
              report(id, 10_000 * ((k % 9) + 1), user),
              report(id, 7_000 * ((k % 13) + 1), user),
            ]);
            expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
          }
        });
        await Promise.all(writers);
        stop = true;
        await Promise.all(folds);
        const ids = users.map((u) => u.userId);
        const kept = await keptTotals(ctx, ids);
        expect(kept).toEqual(await foldedTotals(ctx, ids));
        expect((kept.totals as Array<{ streams: number }>).map((t) => t.streams)).toEqual([
          15, 15, 15,
        ]);
      },
    );
  });

  describe('stats', () => {
    it('are zeros and seven empty days for a listener without plays', async () => {
      const user = await makeUser(ctx, 'listener', 'Nobody');
      const res = await call('GET', '/api/me/stats', user);
      expect(res.statusCode).toBe(200);
      const stats = res.json() as UserStats;
      expect(stats).toMatchObject({
        totalStreams: 0,
        totalHours: 0,
        completionRate: 0,
        completedStreams: 0,
        topArtists: [],
        topGenres: [],
        topSongs: [],
      });
      expect(stats.activityData).toEqual(
        lastDays(ctx.clock.now(), 7).map((date) => ({ date, streams: 0 })),
      );
    });

    it('are computed exactly on a hand-made data set, and "today" follows the clock', async () => {
      const email = `stats-${crypto.randomUUID()}@example.com`;
      const signed = await signUp(ctx.app, { email, display_name: 'Stats Listener' });
      const userId = signed.res.json().user.id as string;
      let token = signed.res.json().access_token as string;
      const getStats = async () => {
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/me/stats',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(200);
        return res.json() as UserStats;
      };

      const s = {
        alpha: await seedSong(ctx, {
          title: 'Alpha',
          artist: 'Ann',
          genre: 'Rock',
          durationMs: 200_000,
        }),
        beta: await seedSong(ctx, {
          title: 'Beta',
          artist: 'Ann',
          genre: 'rock ',
          durationMs: 100_000,
        }),
        gamma: await seedSong(ctx, {
          title: 'Gamma',
          artist: 'Bob',
          genre: 'Jazz',
          durationMs: 300_000,
        }),
        delta: await seedSong(ctx, {
          title: 'Delta',
          artist: 'Cy',
          genre: null,
          durationMs: 60_000,
        }),
        eps: await seedSong(ctx, { title: 'Eps', artist: 'Dee', genre: '', durationMs: 120_000 }),
        zeta: await seedSong(ctx, {
          title: 'Zeta',
          artist: 'Eve',
          genre: 'Pop',
          durationMs: 10_000,
        }),
        eta: await seedSong(ctx, {
          title: 'Eta',
          artist: 'Fay',
          genre: 'Blues',
          durationMs: 10_000,
        }),
        // No artist name: counted in totals and songs, not among artists.
        nameless: await seedSong(ctx, {
          title: 'Nameless',
          artist: null,
          genre: null,
          durationMs: 10_000,
        }),
      };
      const midnight = Date.UTC(
        ctx.clock.now().getUTCFullYear(),
        ctx.clock.now().getUTCMonth(),
        ctx.clock.now().getUTCDate(),
      );
      // [song, listened_ms, completed, played_at as ms since today's UTC midnight]
      const plays: Array<[string, number, boolean, number]> = [
        [s.alpha, 200_000, true, 30 * 60_000],
        [s.alpha, 180_000, true, 60 * 60_000],
        [s.alpha, 50_000, false, -DAY + 5_000],
        [s.alpha, 0, false, -8 * DAY],
        [s.beta, 100_000, true, -3 * DAY],
        [s.beta, 90_000, true, -3 * DAY + 1],
        [s.beta, 10_000, false, -6 * DAY - 1], // one millisecond before the window
        [s.gamma, 300_000, true, -6 * DAY], // the window's first instant
        [s.gamma, 0, false, -5 * DAY - 1], // the window's first day, last millisecond
        [s.gamma, 0, false, -30 * DAY],
        [s.delta, 60_000, true, -DAY + 1],
        [s.delta, 60_000, true, -10 * DAY],
        [s.eps, 120_000, true, -2 * DAY],
        [s.zeta, 5_000, false, -40 * DAY],
        [s.eta, 1_000, false, -100 * DAY],
        [s.nameless, 400, false, -200 * DAY],
      ];
      for (const [song, ms, completed, at] of plays)
        await ctx.db.database.db.execute(sql`
          insert into stream_analytics (user_id, song_id, listened_ms, completed, played_at)
          values (${userId}, ${song}, ${ms}, ${completed},
                  ${new Date(midnight + at).toISOString()}::timestamptz)`);
      // Other listeners' plays count for nobody's stats but their own.
      for (let i = 0; i < 9; i++) {
        const r = await start(i % 2 ? s.zeta : s.eta, other);
        await report(r.json().id, 10_000, other);
      }

      const stats = await getStats();
      // 16 plays, 8 completed; 1,176,400 ms heard.
      expect(stats.totalStreams).toBe(16);
      expect(stats.completedStreams).toBe(8);
      expect(stats.completionRate).toBe(50);
      expect(stats.totalHours).toBe(0.33);
      expect(stats.topArtists).toEqual([
        { name: 'Ann', streams: 7, hours: 0.18 }, // 630,000 ms
        { name: 'Bob', streams: 3, hours: 0.08 },
        { name: 'Cy', streams: 2, hours: 0.03 },
        { name: 'Dee', streams: 1, hours: 0.03 }, // ties on streams: more heard first
        { name: 'Eve', streams: 1, hours: 0 },
      ]);
      // 'Rock' and 'rock ' are one genre, shown as its most played spelling; null and '' skipped.
      expect(stats.topGenres).toEqual([
        { genre: 'Rock', count: 7 },
        { genre: 'Jazz', count: 3 },
        { genre: 'Blues', count: 1 },
        { genre: 'Pop', count: 1 },
      ]);
      expect(stats.topSongs).toEqual([
        { title: 'Alpha', plays: 4 },
        { title: 'Beta', plays: 3 },
        { title: 'Gamma', plays: 3 },
        { title: 'Delta', plays: 2 },
        { title: 'Eps', plays: 1 },
      ]);
      const days = lastDays(ctx.clock.now(), 7);
      expect(stats.activityData).toEqual(
        [2, 0, 0, 2, 1, 2, 2].map((streams, i) => ({ date: days[i], streams })),
      );

      // A day later (a fresh sign-in: the clock ends the old token), the window moves on.
      ctx.clock.advance(DAY);
      const again = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email, password: 'secret-pass' },
        remoteAddress: freshIp(),
      });
      expect(again.statusCode).toBe(200);
      token = again.json().access_token;
      const later = await getStats();
      expect(later.totalStreams).toBe(16);
      expect(later.activityData).toEqual(
        [0, 0, 2, 1, 2, 2, 0].map((streams, i) => ({
          date: lastDays(ctx.clock.now(), 7)[i],
          streams,
        })),
      );
    });
  });
});

/** A small seeded generator (mulberry32), so a failing sequence can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Totals = {
  totals: unknown[];
  songs: unknown[];
  artists: unknown[];
  genres: unknown[];
};

/** Rows with the named columns as numbers (PostgreSQL answers bigint sums as strings). */
const asNumbers = (list: unknown[], keys: string[]) =>
  (list as Array<Record<string, unknown>>).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, keys.includes(k) ? Number(v) : v])),
  );

/** Applies the pending listener-total changes now, as the app's periodic fold does. */
async function foldTotals(ctx: TestContext, batch = 10_000): Promise<number> {
  return createPlaysRepository(ctx.db.database.db).foldListenerTotals(batch);
}

async function pendingTotals(ctx: TestContext, userId?: string): Promise<number> {
  const [row] = await rows<{ n: string | number }>(
    ctx,
    userId
      ? sql`select count(*) as n from listening_deltas where user_id = ${userId}`
      : sql`select count(*) as n from listening_deltas`,
  );
  return Number(row!.n);
}

/** The running totals for `users` as stored, pending changes not folded in, in a stable order. */
async function storedTotals(ctx: TestContext, users: string[]): Promise<Totals> {
  const ids = sql`(${sql.join(
    users.map((u) => sql`${u}::uuid`),
    sql`, `,
  )})`;
  return {
    totals: asNumbers(
      await rows(
        ctx,
        sql`select user_id, streams, completed, listened_ms from listener_totals
            where user_id in ${ids} order by user_id`,
      ),
      ['streams', 'completed', 'listened_ms'],
    ),
    songs: asNumbers(
      await rows(
        ctx,
        sql`select user_id, song_id, plays, listened_ms, artist, genre from listener_songs
            where user_id in ${ids} order by user_id, song_id`,
      ),
      ['plays', 'listened_ms'],
    ),
    artists: asNumbers(
      await rows(
        ctx,
        sql`select user_id, name, streams, listened_ms from listener_artists
            where user_id in ${ids} order by user_id, name`,
      ),
      ['streams', 'listened_ms'],
    ),
    genres: asNumbers(
      await rows(
        ctx,
        sql`select user_id, genre, count from listener_genres
            where user_id in ${ids} order by user_id, genre`,
      ),
      ['count'],
    ),
  };
}

/** The running totals for `users` once every pending change is folded in. */
async function keptTotals(ctx: TestContext, users: string[]): Promise<Totals> {
  while ((await foldTotals(ctx)) > 0);
  return storedTotals(ctx, users);
}

/** The same figures folded from scratch out of stream_analytics (what the old stats did). */
async function foldedTotals(ctx: TestContext, users: string[]): Promise<Totals> {
  const ids = sql`(${sql.join(
    users.map((u) => sql`${u}::uuid`),
    sql`, `,
  )})`;
  return {
    totals: asNumbers(
      await rows(
        ctx,
        sql`select user_id, count(*) as streams, count(*) filter (where completed) as completed,
              sum(listened_ms) as listened_ms
            from stream_analytics where user_id in ${ids} group by user_id order by user_id`,
      ),
      ['streams', 'completed', 'listened_ms'],
    ),
    songs: asNumbers(
      await rows(
        ctx,
        sql`select a.user_id, a.song_id, count(*) as plays, sum(a.listened_ms) as listened_ms,
              s.artist, s.genre
            from stream_analytics a join songs s on s.id = a.song_id
            where a.user_id in ${ids}
            group by a.user_id, a.song_id, s.artist, s.genre order by a.user_id, a.song_id`,
      ),
      ['plays', 'listened_ms'],
    ),
    artists: asNumbers(
      await rows(
        ctx,
        sql`select a.user_id, s.artist as name, count(*) as streams, sum(a.listened_ms) as listened_ms
            from stream_analytics a join songs s on s.id = a.song_id
            where a.user_id in ${ids} and btrim(s.artist) <> ''
            group by a.user_id, s.artist order by a.user_id, s.artist`,
      ),
      ['streams', 'listened_ms'],
    ),
    genres: asNumbers(
      await rows(
        ctx,
        sql`select a.user_id, lower(btrim(s.genre)) as genre, count(*) as count
            from stream_analytics a join songs s on s.id = a.song_id
            where a.user_id in ${ids} and btrim(s.genre) <> ''
            group by a.user_id, lower(btrim(s.genre)) order by 1, 2`,
      ),
      ['count'],
    ),
  };
}

/** The UTC dates of the `n` days ending with `now`'s, oldest first. */
function lastDays(now: Date, n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    new Date(now.getTime() - (n - 1 - i) * DAY).toISOString().slice(0, 10),
  );
}

describe.each(dbKinds)('the app folds pending plays on its own on %s', (kind) => {
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '1' });

  it('a started play reaches songs.play_count within seconds, with nothing left pending', async () => {
    const user = await makeUser(ctx, 'listener', 'Folded Listener');
    const song = await seedSong(ctx, { title: 'Folded By The App' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/plays',
      headers: user.headers,
      payload: { song_id: song },
    });
    expect(res.statusCode).toBe(201);
    const deadline = Date.now() + 10_000;
    while ((await storedPlayCount(ctx, song)) < 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await storedPlayCount(ctx, song)).toBe(1);
    expect(await pendingPlays(ctx)).toBe(0);
  });

  it('a started play reaches the listener totals within seconds, with nothing left pending', async () => {
    const user = await makeUser(ctx, 'listener', 'Totals By The App');
    const song = await seedSong(ctx, { title: 'Counted By The App', artist: 'Abe' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/plays',
      headers: user.headers,
      payload: { song_id: song },
    });
    expect(res.statusCode).toBe(201);
    const deadline = Date.now() + 10_000;
    while ((await pendingTotals(ctx, user.userId)) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect((await storedTotals(ctx, [user.userId])).totals).toEqual([
      { user_id: user.userId, streams: 1, completed: 0, listened_ms: 0 },
    ]);
  });
});
