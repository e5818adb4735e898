/**
 * Database cost of one listening write, sequential on one connection (ADR 0016): a play's
 * start and its report timed N times each against a fresh migrated PostgreSQL database with
 * 1,000 listeners and 1,000 songs, and EXPLAIN ANALYZE of one of each (trigger times
 * included). Run: npx tsx bench/listening-profile.ts
 */
import { sql } from 'drizzle-orm';
import { withBenchPostgres } from './catalogue.bench.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import { createPlaysRepository } from '../src/server/modules/listening/plays.repository.ts';

const N = Number(process.env.PROFILE_N ?? 2000);

await withBenchPostgres(async (database) => {
  const db = database.db;
  await db.execute(sql`
    insert into users (id, email, password_hash)
    select md5('u' || k)::uuid, 'p' || k || '@example.com', 'x' from generate_series(0, 999) k`);
  await db.execute(sql`
    insert into songs (id, title, artist, genre, file_url, duration_ms)
    select md5('s' || k)::uuid, 'Song ' || k, 'Artist ' || (k % 50), 'Rock', '/media/music/p.wav', 200000
    from generate_series(0, 999) k`);
  const users = (await queryRows<{ id: string }>(db, sql`select id from users order by id`)).map(
    (r) => r.id,
  );
  const songs = (await queryRows<{ id: string }>(db, sql`select id from songs order by id`)).map(
    (r) => r.id,
  );
  const plays = createPlaysRepository(db);
  const ids: Array<[string, string]> = [];
  const time = async (label: string, f: (k: number) => Promise<unknown>) => {
    for (let k = 0; k < 200; k++) await f(k);
    const t = performance.now();
    for (let k = 0; k < N; k++) await f(k);
    console.log(
      `${label}: ${((performance.now() - t) / N).toFixed(3)} ms each (round trip, sequential)`,
    );
  };
  await time('start', async (k) => {
    const u = users[k % users.length]!;
    const row = await plays.start(u, songs[(k * 7919) % songs.length]!, new Date());
    ids.push([u, row!.id]);
  });
  let j = 0;
  await time('report', async (k) => {
    const [u, id] = ids[j++ % ids.length]!;
    await plays.progress(u, id, 30000 + k, 90);
  });
  await time('bare upsert', async (k) => {
    await db.execute(sql`create table if not exists bare (k int primary key, n bigint not null)`);
    await db.execute(
      sql`insert into bare values (${k % 1000}, 1) on conflict (k) do update set n = bare.n + 1`,
    );
  });
  const explain = async (label: string, q: ReturnType<typeof sql>) => {
    const r = await queryRows<Record<string, string>>(
      db,
      sql`explain (analyze, costs off, timing on) ${q}`,
    );
    console.log(`--- ${label}\n` + r.map((x) => Object.values(x)[0]).join('\n'));
  };
  await explain(
    'start',
    sql`with play as (insert into stream_analytics (user_id, song_id) values (${users[1]}, ${songs[2]}) returning id, song_id, played_at),
      counted as (insert into play_count_deltas (song_id) select song_id from play) select id, played_at from play`,
  );
  await explain(
    'report',
    sql`update stream_analytics set listened_ms = listened_ms + 1000 where id = ${ids[5]![1]}`,
  );
  const [pending] = await queryRows<{ ok: boolean }>(
    db,
    sql`select to_regclass('listening_deltas') is not null as ok`,
  );
  if (pending?.ok) {
    const t = performance.now();
    await db.execute(sql`select listening_totals_fold(100000)`);
    console.log(
      `fold of ${ids.length} starts + ${N + 200} reports: ${(performance.now() - t).toFixed(1)} ms`,
    );
  }
});
process.exit(0);
