// Plays heard offline (a download played with the network off), sent afterwards under the id
// the device gave them: counted once however often they are sent, refused as the Subsonic
// scrobble is when their start is in the future or too old, and never written on bad input.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlaysRepository } from '../../src/server/modules/listening/plays.repository.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

async function seedSong(
  ctx: TestContext,
  durationMs = 100_000,
  artistId: string | null = null,
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, file_url, duration_ms, artist_id)
        values ('Offline', ${`/media/music/seed-${crypto.randomUUID()}.wav`}, ${durationMs},
          ${artistId}::uuid)
        returning id`,
  );
  return row!.id;
}

async function playsOf(ctx: TestContext, userId: string) {
  return rows<{ id: string; song_id: string; listened_ms: number; completed: boolean }>(
    ctx,
    sql`select id, song_id, listened_ms, completed from stream_analytics where user_id = ${userId}`,
  );
}

async function playCount(ctx: TestContext, songId: string): Promise<number> {
  const repo = createPlaysRepository(ctx.db.database.db);
  while ((await repo.foldPlayCounts(10_000)) > 0);
  const [row] = await rows<{ n: number }>(
    ctx,
    sql`select play_count as n from songs where id = ${songId}`,
  );
  return Number(row!.n);
}

describe.each(dbKinds)('plays recorded offline on %s', (kind) => {
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '0' });
  let listener: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Offline Listener');
    other = await makeUser(ctx, 'listener', 'Other Listener');
  });

  const send = (id: string, payload: object, user: TestUser | null = listener) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/offline-plays/${id}`,
      headers: user ? user.headers : {},
      payload,
    });
  const minutesAgo = (n: number) => new Date(ctx.clock.now().getTime() - n * MINUTE).toISOString();

  it('sent twice (the first answer lost) is counted once, its heard time kept at the highest', async () => {
    const song = await seedSong(ctx);
    const id = crypto.randomUUID();
    const body = { song_id: song, started_at: minutesAgo(30), listened_ms: 40_000 };
    const first = await send(id, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ id, listened_ms: 40_000, completed: false, recorded: true });
    const again = await send(id, { ...body, listened_ms: 95_000 });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id, listened_ms: 95_000, completed: true, recorded: false });
    const third = await send(id, body);
    expect(third.json()).toMatchObject({ listened_ms: 95_000, recorded: false });
    expect(await playsOf(ctx, listener.userId)).toEqual([
      { id, song_id: song, listened_ms: 95_000, completed: true },
    ]);
    expect(await playCount(ctx, song)).toBe(1);
    // It is in recently played, at the time it started.
    const recent = await ctx.app.inject({
      method: 'GET',
      url: '/api/me/recently-played',
      headers: listener.headers,
    });
    expect(recent.json().items[0]).toMatchObject({ play_id: id, played_at: body.started_at });
  });

  it('sent at once twice concurrently is still one play', async () => {
    const song = await seedSong(ctx);
    const id = crypto.randomUUID();
    const body = { song_id: song, started_at: minutesAgo(5), listened_ms: 10_000 };
    const answers = await Promise.all([send(id, body), send(id, body)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.filter((a) => a.json().recorded)).toHaveLength(1);
    expect(await playCount(ctx, song)).toBe(1);
  });

  it('a play in an artist’s day the dashboard already counted is added to that day, once', async () => {
    const artist = await makeUser(ctx, 'artist', 'Offline Artist');
    const song = await seedSong(ctx, 100_000, artist.userId);
    const day = new Date(ctx.clock.now().getTime() - 2 * DAY).toISOString().slice(0, 10);
    await ctx.db.database.db.execute(
      sql`insert into artist_daily_analytics
            (artist_id, analytics_date, total_streams, unique_listeners, listened_ms, updated_at)
          values (${artist.userId}, ${day}::date, 1, 1, 1000, now())`,
    );
    const dayRow = async () => {
      const [r] = await rows<{ s: number; u: number; ms: number }>(
        ctx,
        sql`select total_streams as s, unique_listeners as u, listened_ms as ms
            from artist_daily_analytics
            where artist_id = ${artist.userId} and analytics_date = ${day}::date`,
      );
      return [Number(r!.s), Number(r!.u), Number(r!.ms)];
    };
    const body = { song_id: song, started_at: `${day}T08:00:00.000Z`, listened_ms: 60_000 };
    const id = crypto.randomUUID();
    expect((await send(id, body)).statusCode).toBe(200);
    expect((await send(id, body)).statusCode).toBe(200);
    expect(await dayRow()).toEqual([2, 2, 61_000]);
    // The same listener again that day: one more stream, no new listener.
    const later = { ...body, started_at: `${day}T09:00:00.000Z`, listened_ms: 500_000 };
    expect((await send(crypto.randomUUID(), later)).json()).toMatchObject({
      listened_ms: 100_000,
      completed: true,
      recorded: true,
    });
    expect(await dayRow()).toEqual([3, 2, 161_000]);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const song = await seedSong(ctx);
    const before = await playsOf(ctx, listener.userId);
    const ok = { song_id: song, started_at: minutesAgo(1), listened_ms: 1_000 };
    const cases: Array<[string, object, number, string]> = [
      [
        'future',
        { ...ok, started_at: new Date(ctx.clock.now().getTime() + 2 * MINUTE).toISOString() },
        400,
        'validation_failed',
      ],
      [
        'too old',
        { ...ok, started_at: new Date(ctx.clock.now().getTime() - 15 * DAY).toISOString() },
        400,
        'validation_failed',
      ],
      ['no time', { song_id: song, listened_ms: 1_000 }, 400, 'validation_failed'],
      ['bad time', { ...ok, started_at: 'yesterday' }, 400, 'validation_failed'],
      ['negative', { ...ok, listened_ms: -1 }, 400, 'validation_failed'],
      ['two items', { ...ok, episode_id: crypto.randomUUID() }, 400, 'validation_failed'],
      ['unknown song', { ...ok, song_id: crypto.randomUUID() }, 404, 'song_not_found'],
      [
        'unknown episode',
        { episode_id: crypto.randomUUID(), started_at: ok.started_at, listened_ms: 0 },
        404,
        'not_found',
      ],
    ];
    for (const [name, payload, status, code] of cases) {
      const res = await send(crypto.randomUUID(), payload);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error.code, name).toBe(code);
    }
    expect((await send('not-a-uuid', ok)).statusCode).toBe(400);
    expect((await send(crypto.randomUUID(), ok, null)).statusCode).toBe(401);
    expect(await playsOf(ctx, listener.userId)).toEqual(before);
    expect(await playCount(ctx, song)).toBe(0);
  });

  it('an id already used by another listener’s play is refused, and that play is untouched', async () => {
    const song = await seedSong(ctx);
    const id = crypto.randomUUID();
    const body = { song_id: song, started_at: minutesAgo(3), listened_ms: 20_000 };
    expect((await send(id, body, other)).statusCode).toBe(200);
    const taken = await send(id, { ...body, listened_ms: 90_000 });
    expect(taken.statusCode).toBe(409);
    expect(await playsOf(ctx, other.userId)).toContainEqual({
      id,
      song_id: song,
      listened_ms: 20_000,
      completed: false,
    });
    // The same id for another song of the caller's is refused too.
    const otherSong = await seedSong(ctx);
    expect((await send(id, { ...body, song_id: otherSong }, other)).statusCode).toBe(409);
    expect(await playCount(ctx, song)).toBe(1);
    expect(await playCount(ctx, otherSong)).toBe(0);
  });
});
