/**
 * OpenSubsonic browse and search bench (docs/decisions/0034), PostgreSQL, through the real
 * app's /rest path (JSON, apiKey auth), each figure beside a bare `ping` over the same HTTP
 * path measured in the same run (and a primary-key lookup through the same pool, in the log):
 *
 * - search3 with an empty query paging through 1,000,000 songs 500 at a time (every page,
 *   songOffset 0 … 999,500): the slowest page and the p95; target every page < 100 ms. The
 *   log also times the plain `OFFSET 999500` over songs_own_id_idx (how migration 0033 paged).
 * - search3 with a text (a common title word, a rare word, an artist's name), 20 of each;
 *   artist and album paging (500 at a time, at the first, a middle and the last page).
 * - getAlbumList2 (all nine types, 500 per page at offsets across the list), getArtists and
 *   getIndexes at 20,000 artists (~60,000 albums); target p95 < 50 ms. getRandomSongs (500).
 *
 * Data: 20,000 artists' accounts and 1,000,000 songs from INSERT … SELECT generate_series
 * (titles of common words, 8 genres, uploads spread over 2023–2025, so each artist has about
 * three albums); the caller likes 2,000 songs, follows 1,000 artists and has 2,000 plays. The
 * songs indexes that none of these methods read (search's trigram GiSTs, title words and
 * pairs) are dropped for the load; the triggers that keep song_artists and the Subsonic
 * rollups run as they do for uploads. The database is dropped afterwards.
 *
 * Run alone: npx tsx bench/subsonic-browse.bench.ts   (SUBSONIC_BENCH_SONGS to resize)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/server/db/client.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import {
  arr,
  GENRES,
  percentile,
  pick,
  postgresReachable,
  startApp,
  withBenchPostgres,
  WORDS,
} from './catalogue.bench.ts';

const ARTISTS = 20_000;
const PAGE = 500;
const round = (n: number) => Math.round(n * 100) / 100;

/** The songs indexes none of the measured methods read: dropped for good before the load. */
const UNREAD_INDEXES = [
  'songs_title_pairs_idx',
  'songs_title_words_idx',
  'songs_title_lower_trgm_gist_idx',
  'songs_play_count_idx',
  'songs_artist_play_count_idx',
  'songs_artist_genre_play_count_idx',
  'songs_artist_genre_created_idx',
  'songs_genre_play_count_idx',
];

/**
 * The songs, loaded as a restore would: the remaining indexes dropped and the user triggers
 * off for one INSERT … SELECT, then the indexes rebuilt and the tables the triggers keep
 * (song_artists, song_genres, subsonic_albums and subsonic_album_genres, subsonic_song_buckets)
 * filled by the statements their migrations (0003, 0034, 0037) run over the songs already
 * there. The per-write path of those triggers is what the integration tests check.
 */
async function seed(database: Database, songs: number, log: Log) {
  const db = database.db;
  let t = performance.now();
  const gists = await queryRows<{ indexname: string }>(
    db,
    sql`select indexname from pg_indexes where tablename = 'songs' and indexname like 'songs_title_trgm_gist_%'`,
  );
  for (const name of [...UNREAD_INDEXES, ...gists.map((g) => g.indexname)])
    await db.execute(sql.raw(`drop index if exists "${name}"`));
  const kept = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where tablename = 'songs' and indexname <> 'songs_pkey'`,
  );
  for (const ix of kept) await db.execute(sql.raw(`drop index "${ix.indexname}"`));
  await db.execute(sql`create table bench_artists (n int primary key, id uuid not null)`);
  await db.execute(sql`
    with u as (
      insert into users (email, password_hash)
      select 'artist-' || i || '@bench.test', 'x' from generate_series(1, ${ARTISTS}) i
      returning id, email
    )
    insert into bench_artists (n, id)
    select split_part(split_part(email, '@', 1), '-', 2)::int, id from u`);
  log(`  seed: ${ARTISTS.toLocaleString()} artists in ${round((performance.now() - t) / 1000)} s`);
  t = performance.now();
  await db.execute(sql`alter table songs disable trigger user`);
  // Artist n's name: 'The ' for every 7th, a common word, then n (names across the letters).
  await db.execute(sql`
    insert into songs (artist_id, artist, title, genre, file_url, duration_ms, play_count, created_at)
    select a.id,
      case when a.n % 7 = 0 then 'The ' else '' end || (${arr(WORDS)})[1 + a.n % 40] || ' ' || a.n,
      (${arr(WORDS)})[1 + ${pick(1, 40)}] || ' ' || (${arr(WORDS)})[1 + ${pick(2, 40)}]
        || case when i % 1000 = 500 then ' take ' || left(md5(i::text), 8) else '' end,
      (${arr(GENRES)})[1 + ${pick(6, 8)}],
      '/media/music/bench.mp3',
      120000 + (i % 180000),
      floor(1000 * power((abs(hashint8extended(i, 7)) % 1000000) / 1000000.0, 4))::bigint,
      timestamptz '2023-01-01T00:00:00Z' + (${pick(8, 3 * 365 * 24)}) * interval '1 hour'
    from generate_series(1::bigint, ${songs}::bigint) as i
    join bench_artists a on a.n = 1 + ${pick(9, ARTISTS)}`);
  await db.execute(sql`alter table songs enable trigger user`);
  log(
    `  seed: ${songs.toLocaleString()} songs in ${round((performance.now() - t) / 1000)} s (no indexes, triggers off)`,
  );
  t = performance.now();
  await db.execute(sql`set maintenance_work_mem = '256MB'`);
  for (const ix of kept) await db.execute(sql.raw(ix.indexdef));
  log(`  seed: ${kept.length} songs indexes rebuilt in ${round((performance.now() - t) / 1000)} s`);
  t = performance.now();
  await db.execute(sql`
    insert into song_artists (artist_id, name, songs)
    select artist_id, max(artist), count(*) from songs where artist_id is not null group by 1 order by 1`);
  await db.execute(sql`
    insert into song_genres (genre, songs)
    select lower(genre), count(*) from songs where genre is not null group by 1 order by 1`);
  await db.execute(sql`
    select subsonic_albums_refresh(array_agg(k.artist_id), array_agg(k.year))
    from (
      select distinct artist_id, subsonic_song_year(created_at) as year
      from songs where source is null and artist_id is not null
    ) k`);
  await db.execute(sql`
    insert into subsonic_song_buckets (prefix, songs)
    select subsonic_song_bucket(id), count(*) from songs where source is null group by 1 order by 1`);
  log(
    `  seed: song_artists, song_genres, subsonic_albums and subsonic_song_buckets built in ${round((performance.now() - t) / 1000)} s`,
  );
}

/** The caller's 2,000 likes, 1,000 follows and 2,000 plays; then vacuum analyze. */
async function callerState(database: Database, userId: string, log: Log) {
  const db = database.db;
  const t = performance.now();
  await db.execute(sql`
    insert into liked_songs (user_id, song_id, created_at)
    select ${userId}, id, now() - (row_number() over ()) * interval '1 minute'
    from (select id from songs tablesample system (1) limit 2000) s`);
  await db.execute(sql`
    insert into user_follows (follower_id, following_id)
    select ${userId}, id from bench_artists where n % 20 = 0`);
  await db.execute(sql`
    insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed)
    select ${userId}, id, now() - (row_number() over ()) * interval '10 minutes', 90000, true
    from (select id from songs tablesample system (1) limit 2000) s`);
  // As autovacuum leaves a loaded table: visibility map set (index-only scans), statistics.
  await db.execute(sql`vacuum analyze`);
  log(
    `  seed: likes, follows, plays, vacuum analyze in ${round((performance.now() - t) / 1000)} s`,
  );
}

type Rest = (method: string, query?: Record<string, string | number>) => Promise<number>;

/** A /rest caller that checks every answer is a JSON envelope with status ok. */
function restClient(url: string, apiKey: string, check?: (body: Json) => void): Rest {
  return async (method, query = {}) => {
    const qs = new URLSearchParams({ apiKey, f: 'json', v: '1.16.1', c: 'bench' });
    for (const [k, v] of Object.entries(query)) qs.set(k, String(v));
    const t = performance.now();
    const res = await fetch(`${url}/rest/${method}?${qs}`);
    const bytes = await res.arrayBuffer();
    // Timed to the answer's last byte: the client's parse (a 4 MB index) is not the server's.
    const ms = performance.now() - t;
    const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as Json;
    const envelope = body['subsonic-response'] as Json;
    if (res.status !== 200 || envelope.status !== 'ok')
      throw new Error(`${method} ${qs}: ${res.status} ${JSON.stringify(envelope).slice(0, 200)}`);
    check?.(envelope);
    return ms;
  };
}
type Json = Record<string, unknown>;

async function times(n: number, call: (k: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < n; k++) out.push(await call(k));
  return out;
}

const stats = (ms: number[]) => ({
  p50: percentile(ms, 50),
  p95: percentile(ms, 95),
  max: Math.max(...ms),
});

async function measure(database: Database, songs: number, log: Log): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-subsonic-'));
  const app = await startApp(database, dataDir);
  try {
    const [loaded] = await queryRows<{ yes: boolean }>(
      database.db,
      sql`select to_regclass('bench_artists') is not null as yes`,
    );
    if (!loaded?.yes) await seed(database, songs, log);
    await callerState(database, app.userId, log);
    const created = await fetch(`${app.url}/api/me/subsonic/passwords`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    });
    if (created.status !== 201) throw new Error(`app password: ${created.status}`);
    const { password } = (await created.json()) as { password: string };
    const rest = restClient(app.url, password);
    const rows: BenchRow[] = [];

    // Baselines: ping over the same path; a primary-key lookup through the same pool.
    await times(50, () => rest('ping'));
    const ping = stats(await times(300, () => rest('ping')));
    const [oneSong] = await queryRows<{ id: string }>(
      database.db,
      sql`select id from songs limit 1`,
    );
    const pk = stats(
      await times(300, async () => {
        const t = performance.now();
        await database.db.execute(sql`select title from songs where id = ${oneSong!.id}`);
        return performance.now() - t;
      }),
    );
    log(
      `  baseline: ping p50 ${round(ping.p50)} / p95 ${round(ping.p95)} / max ${round(ping.max)} ms; primary-key select p95 ${round(pk.p95)} ms`,
    );
    const figure = (
      name: string,
      s: { p95: number; max: number },
      target: number,
      by: 'p95' | 'max' = 'p95',
    ) =>
      row(
        `${name}: ${by} (p95 ${round(s.p95)} ms, max ${round(s.max)} ms)`,
        s[by],
        ping[by],
        'lower',
        {
          unit: 'ms',
          baselineName: `ping ${by}`,
          target: { text: `${by} < ${target} ms`, met: s[by] < target },
        },
      );

    // search3, empty query: every page of 500, checked to be the whole catalogue in id order.
    const [{ n: own } = { n: 0 }] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from songs where source is null`,
    );
    let seen = 0;
    let last = '';
    const pageCheck = (envelope: Json) => {
      const song = (envelope.searchResult3 as { song?: { id: string }[] }).song ?? [];
      if (song.length && song[0]!.id <= last) throw new Error(`search3 pages out of order`);
      seen += song.length;
      last = song.at(-1)?.id ?? last;
    };
    const pager = restClient(app.url, password, pageCheck);
    const pages = Math.ceil(own / PAGE);
    const paging = await times(pages, (k) =>
      pager('search3', {
        query: '',
        songCount: PAGE,
        songOffset: k * PAGE,
        artistCount: 0,
        albumCount: 0,
      }),
    );
    if (seen !== own) throw new Error(`search3 paged ${seen} songs of ${own}`);
    const worst = paging.indexOf(Math.max(...paging));
    const ps = stats(paging);
    log(
      `  search3 '' paging: ${pages} pages of ${PAGE}, p50 ${round(ps.p50)} / p95 ${round(ps.p95)} ms, slowest ${round(ps.max)} ms at songOffset ${worst * PAGE}; last page ${round(paging.at(-1)!)} ms`,
    );
    const deep = Math.max(0, own - PAGE);
    const offsetMs = stats(
      await times(5, async () => {
        const t = performance.now();
        await database.db.execute(
          sql`select id from songs where source is null order by id limit ${PAGE} offset ${deep}`,
        );
        return performance.now() - t;
      }),
    );
    log(
      `  (before: plain OFFSET ${deep} over songs_own_id_idx, ids only, p50 ${round(offsetMs.p50)} ms)`,
    );
    rows.push(
      figure(`search3 '' every page of ${PAGE} to offset ${deep.toLocaleString()}`, ps, 100, 'max'),
    );

    // search3 with a text, and artist / album paging.
    const [artistRow] = await queryRows<{ name: string }>(
      database.db,
      sql`select name from song_artists order by artist_id limit 1`,
    );
    const texts = ['midnight', 'thunder garden', 'take', artistRow!.name];
    for (const text of texts) {
      await rest('search3', { query: text });
      const s = stats(await times(30, () => rest('search3', { query: text })));
      log(`  search3 '${text}': p50 ${round(s.p50)} / p95 ${round(s.p95)} ms`);
      rows.push(figure(`search3 '${text}' (20 each)`, s, 100));
    }
    const albums = Number(
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from subsonic_albums`,
        )
      )[0]!.n,
    );
    for (const [what, total] of [
      ['artist', ARTISTS],
      ['album', albums],
    ] as const) {
      const offsets = [0, Math.floor(total / 2 / PAGE) * PAGE, Math.max(0, total - PAGE)];
      const s = stats(
        await times(30, (k) =>
          rest('search3', {
            query: '',
            songCount: 0,
            artistCount: what === 'artist' ? PAGE : 0,
            albumCount: what === 'album' ? PAGE : 0,
            [`${what}Offset`]: offsets[k % 3]!,
          }),
        ),
      );
      log(
        `  search3 '' ${what}s ${PAGE} at offsets ${offsets.join(', ')} of ${total}: p50 ${round(s.p50)} / p95 ${round(s.p95)} ms`,
      );
      rows.push(figure(`search3 '' ${what}Count ${PAGE} (offsets to ${offsets[2]})`, s, 100));
    }

    // getAlbumList2, every type, 500 per page at offsets across the list.
    const types: Record<string, Record<string, string | number>> = {
      random: {},
      newest: {},
      frequent: {},
      recent: {},
      starred: {},
      alphabeticalByName: {},
      alphabeticalByArtist: {},
      byYear: { fromYear: 2023, toYear: 2025 },
      byYearDesc: { fromYear: 2025, toYear: 2023 },
      byGenre: { genre: 'Rock' },
    };
    const all: number[] = [];
    for (const [name, extra] of Object.entries(types)) {
      const type = name === 'byYearDesc' ? 'byYear' : name;
      const offsets = [0, 2000, 20_000, Math.max(0, albums - PAGE)];
      await rest('getAlbumList2', { type, size: PAGE, ...extra });
      const s = stats(
        await times(20, (k) =>
          rest('getAlbumList2', { type, size: PAGE, offset: offsets[k % 4]!, ...extra }),
        ),
      );
      all.push(s.p95);
      log(
        `  getAlbumList2 ${name} (${PAGE} per page): p50 ${round(s.p50)} / p95 ${round(s.p95)} / max ${round(s.max)} ms`,
      );
      rows.push(
        figure(`getAlbumList2 ${name}, ${PAGE}/page at ${albums.toLocaleString()} albums`, s, 50),
      );
    }
    log(`  getAlbumList2 worst p95 over the types: ${round(Math.max(...all))} ms`);

    for (const method of ['getArtists', 'getIndexes']) {
      await rest(method);
      const s = stats(await times(30, () => rest(method)));
      log(
        `  ${method} (${ARTISTS.toLocaleString()} artists): p50 ${round(s.p50)} / p95 ${round(s.p95)} / max ${round(s.max)} ms`,
      );
      rows.push(figure(`${method} at ${ARTISTS.toLocaleString()} artists`, s, 50));
    }

    for (const [name, extra] of [
      ['500', { size: 500 }],
      ['500 genre=Jazz', { size: 500, genre: 'Jazz' }],
      ['10 fromYear=2024 toYear=2024', { size: 10, fromYear: 2024, toYear: 2024 }],
    ] as const) {
      await rest('getRandomSongs', extra);
      const s = stats(await times(30, () => rest('getRandomSongs', extra)));
      log(`  getRandomSongs ${name}: p50 ${round(s.p50)} / p95 ${round(s.p95)} ms`);
      rows.push(figure(`getRandomSongs ${name} at ${own.toLocaleString()} songs`, s, 100));
    }
    return rows;
  } finally {
    await app.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function subsonicBrowseBench(
  options: { log?: Log; songs?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  if (!(await postgresReachable()))
    return [unavailable('subsonic browse at 1,000,000 songs', 'PostgreSQL not reachable')];
  const songs = options.songs ?? Number(process.env.SUBSONIC_BENCH_SONGS ?? 1_000_000);
  // SUBSONIC_BENCH_KEEP=<name>: load into that database once and keep it for later runs.
  return withBenchPostgres(
    (database) => measure(database, songs, log),
    process.env.SUBSONIC_BENCH_KEEP,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await subsonicBrowseBench({ log: (line) => console.log(line) }));
  process.exit(0);
}
