import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dbKinds, createTestDatabase, type TestDatabase } from '../helpers/test-db.ts';
import type { Db } from '../../src/server/db/client.ts';

// The database, not the services, is the last line for these invariants: each must be
// rejected by PostgreSQL itself, on PGlite and on the server alike.

/** The SQLSTATE of a failed query, looking through drizzle's error wrapper. */
async function sqlState(run: Promise<unknown>): Promise<string | undefined> {
  try {
    await run;
  } catch (error) {
    let e: unknown = error;
    while (e && typeof e === 'object') {
      if ('code' in e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
      e = 'cause' in e ? e.cause : undefined;
    }
    throw error;
  }
  return undefined;
}

const UNIQUE = '23505';
const CHECK = '23514';

type Row = Record<string, unknown>;
async function one(db: Db, query: ReturnType<typeof sql>): Promise<Row> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows[0]!;
}

describe.each(dbKinds)('schema constraints on %s', (kind) => {
  let t: TestDatabase;
  let db: Db;
  let alice: string;
  let bob: string;
  let songId: string;
  let playlistId: string;
  let podcastId: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    db = t.database.db;
    const user = async (email: string) =>
      (
        await one(
          db,
          sql`insert into users (email, password_hash) values (${email}, 'x') returning id`,
        )
      ).id as string;
    alice = await user('alice@example.test');
    bob = await user('bob@example.test');
    songId = (
      await one(
        db,
        sql`insert into songs (artist_id, title, genre, file_url) values (${bob}, 'Song', 'Pop', '/media/music/a.wav') returning id`,
      )
    ).id as string;
    playlistId = (
      await one(
        db,
        sql`insert into playlists (user_id, title) values (${alice}, 'Mix') returning id`,
      )
    ).id as string;
    podcastId = (
      await one(
        db,
        sql`insert into podcasts (creator_id, title) values (${bob}, 'Show') returning id`,
      )
    ).id as string;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('keeps a song once per playlist', async () => {
    await db.execute(
      sql`insert into playlist_tracks (playlist_id, song_id, position) values (${playlistId}, ${songId}, 0)`,
    );
    expect(
      await sqlState(
        db.execute(
          sql`insert into playlist_tracks (playlist_id, song_id, position) values (${playlistId}, ${songId}, 1)`,
        ),
      ),
    ).toBe(UNIQUE);
  });

  it('refuses a negative playlist position', async () => {
    const other = (
      await one(
        db,
        sql`insert into songs (title, preview_url, source) values ('Ext', 'https://x/p.m4a', 'itunes') returning id`,
      )
    ).id;
    expect(
      await sqlState(
        db.execute(
          sql`insert into playlist_tracks (playlist_id, song_id, position) values (${playlistId}, ${other}, -1)`,
        ),
      ),
    ).toBe(CHECK);
  });

  it('refuses a duplicate like', async () => {
    await db.execute(sql`insert into liked_songs (user_id, song_id) values (${alice}, ${songId})`);
    expect(
      await sqlState(
        db.execute(sql`insert into liked_songs (user_id, song_id) values (${alice}, ${songId})`),
      ),
    ).toBe(UNIQUE);
  });

  it('refuses a duplicate follow pair and a self-follow', async () => {
    await db.execute(
      sql`insert into user_follows (follower_id, following_id) values (${alice}, ${bob})`,
    );
    expect(
      await sqlState(
        db.execute(
          sql`insert into user_follows (follower_id, following_id) values (${alice}, ${bob})`,
        ),
      ),
    ).toBe(UNIQUE);
    // The reverse direction is a different follow and is allowed.
    await db.execute(
      sql`insert into user_follows (follower_id, following_id) values (${bob}, ${alice})`,
    );
    expect(
      await sqlState(
        db.execute(
          sql`insert into user_follows (follower_id, following_id) values (${alice}, ${alice})`,
        ),
      ),
    ).toBe(CHECK);
  });

  it('refuses episode number 0 and defaults it to 1', async () => {
    expect(
      await sqlState(
        db.execute(
          sql`insert into podcast_episodes (podcast_id, title, audio_url, episode_number) values (${podcastId}, 'Zero', '/media/podcasts/z.wav', 0)`,
        ),
      ),
    ).toBe(CHECK);
    const row = await one(
      db,
      sql`insert into podcast_episodes (podcast_id, title, audio_url) values (${podcastId}, 'Pilot', '/media/podcasts/p.wav') returning episode_number`,
    );
    expect(row.episode_number).toBe(1);
  });

  it('refuses negative money and a total that is not the sum of its parts', async () => {
    expect(
      await sqlState(
        db.execute(
          sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, total_revenue_cents) values (${bob}, '2026-01', -1, -1)`,
        ),
      ),
    ).toBe(CHECK);
    expect(
      await sqlState(
        db.execute(
          sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, ad_revenue_cents, total_revenue_cents) values (${bob}, '2026-01', 100, 5, 100)`,
        ),
      ),
    ).toBe(CHECK);
    expect(
      await sqlState(
        db.execute(
          sql`insert into revenue_runs (month, artists_processed, total_premium_pool_cents) values ('2026-01', 0, -999)`,
        ),
      ),
    ).toBe(CHECK);
  });

  it('keeps one artist_revenue row per (artist, month) and checks the month format', async () => {
    await db.execute(
      sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, total_revenue_cents) values (${bob}, '2026-02', 10, 10)`,
    );
    expect(
      await sqlState(
        db.execute(
          sql`insert into artist_revenue (artist_id, month, total_revenue_cents) values (${bob}, '2026-02', 0)`,
        ),
      ),
    ).toBe(UNIQUE);
    // Another month for the same artist is fine; a malformed month is not.
    await db.execute(sql`insert into artist_revenue (artist_id, month) values (${bob}, '2026-03')`);
    for (const month of ['2026-13', '2026-1', '26-01', '2026-00']) {
      expect(
        await sqlState(
          db.execute(sql`insert into artist_revenue (artist_id, month) values (${bob}, ${month})`),
        ),
        month,
      ).toBe(CHECK);
    }
  });

  it('refuses a withdrawal under 1000 cents and a decided one without processed_at', async () => {
    const insert = (amount: number) =>
      db.execute(
        sql`insert into artist_withdrawals (artist_id, amount_cents, payment_method, payment_details_encrypted, payment_details_masked)
            values (${bob}, ${amount}, 'paypal', 'enc', 'PayPal b•••@example.test')`,
      );
    expect(await sqlState(insert(999))).toBe(CHECK);
    expect(await sqlState(insert(1000))).toBeUndefined();
    expect(
      await sqlState(
        db.execute(
          sql`update artist_withdrawals set status = 'completed' where artist_id = ${bob}`,
        ),
      ),
    ).toBe(CHECK);
  });

  it('refuses a play that names neither or both of song and episode', async () => {
    expect(
      await sqlState(db.execute(sql`insert into stream_analytics (user_id) values (${alice})`)),
    ).toBe(CHECK);
    expect(
      await sqlState(
        db.execute(
          sql`insert into stream_analytics (user_id, song_id, listened_ms) values (${alice}, ${songId}, -5)`,
        ),
      ),
    ).toBe(CHECK);
  });

  it('refuses a money row for a user to vanish by cascade', async () => {
    // bob has artist_revenue and a withdrawal: deleting him must be an explicit decision.
    // PostgreSQL 18 (PGlite) reports RESTRICT as restrict_violation, 15 as foreign_key_violation.
    expect(['23001', '23503']).toContain(
      await sqlState(db.execute(sql`delete from users where id = ${bob}`)),
    );
  });

  it('has trigram indexes the planner uses for title ILIKE', async () => {
    const defs = (await db.execute(
      sql`select indexname, indexdef from pg_indexes where tablename in ('songs', 'podcasts') and indexdef like '%gin_trgm_ops%' order by indexname`,
    )) as unknown as { rows: { indexname: string; indexdef: string }[] };
    expect(defs.rows.map((r) => r.indexname)).toEqual([
      'podcasts_description_trgm_idx',
      'podcasts_title_trgm_idx',
      'songs_title_trgm_idx',
    ]);
    expect(defs.rows.every((r) => r.indexdef.includes('USING gin'))).toBe(true);

    await db.execute(
      sql`insert into songs (artist_id, title, genre, file_url)
          select ${bob}, 'Track ' || md5(i::text), 'Pop', '/media/music/' || i || '.wav' from generate_series(1, 3000) i`,
    );
    await db.execute(sql`analyze songs`);
    // At a few thousand rows the cost model may still prefer a scan of a small heap; with
    // scans priced out, a plan that uses the index proves the operator class serves ILIKE.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain select id from songs where title ilike '%abc1%' limit 20`,
      )) as unknown as { rows: { 'QUERY PLAN': string }[] };
      return result.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('songs_title_trgm_idx');
  });

  it('serves the newest-first song list from its index', async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const result = (await tx.execute(
        sql`explain select id from songs order by created_at desc limit 12`,
      )) as unknown as { rows: { 'QUERY PLAN': string }[] };
      return result.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('songs_created_at_idx');
    expect(plan).not.toContain('Sort');
  });

  it("reads search's heads and each artist's songs from the sort's indexes alone", async () => {
    // Migration 0014: the eight sort indexes carry the columns search reads (id, title, genre,
    // artist, play count, date), so the head of a sort and an artist's first songs are
    // index-only scans (ADR 0011 "Covering indexes"). The visibility map lets them skip the
    // heap; VACUUM sets it, as autovacuum does on a live server. A few jazz songs by another
    // artist beside the thousands of pop ones, so that the genre's and artist's own indexes
    // are the cheapest way to them.
    await db.execute(
      sql`insert into songs (artist_id, title, genre, file_url)
          select ${alice}, 'Jazz ' || i, 'Jazz', '/media/music/j' || i || '.wav' from generate_series(1, 30) i`,
    );
    await db.execute(sql`vacuum analyze songs`);
    const cols = sql.raw('id, title, genre, artist, play_count, created_at');
    const cases: [string, ReturnType<typeof sql>][] = [
      [
        'songs_play_count_idx',
        sql`select ${cols} from songs order by play_count desc, created_at desc, id desc limit 1000`,
      ],
      [
        'songs_created_at_idx',
        sql`select ${cols} from songs order by created_at desc, id desc limit 1000`,
      ],
      [
        'songs_genre_play_count_idx',
        sql`select ${cols} from songs where lower(genre) = 'jazz' order by play_count desc, created_at desc, id desc limit 1000`,
      ],
      [
        'songs_genre_created_idx',
        sql`select ${cols} from songs where lower(genre) = 'jazz' order by created_at desc, id desc limit 1000`,
      ],
      [
        'songs_artist_play_count_idx',
        sql`select ${cols} from songs where artist_id = ${alice} order by play_count desc, created_at desc, id desc limit 20`,
      ],
      [
        'songs_artist_created_idx',
        sql`select ${cols} from songs where artist_id = ${alice} order by created_at desc limit 20`,
      ],
      [
        'songs_artist_genre_play_count_idx',
        sql`select ${cols} from songs where artist_id = ${alice} and lower(genre) = 'jazz' order by play_count desc, created_at desc, id desc limit 20`,
      ],
      [
        'songs_artist_genre_created_idx',
        sql`select ${cols} from songs where artist_id = ${alice} and lower(genre) = 'jazz' order by created_at desc, id desc limit 20`,
      ],
    ];
    for (const [index, query] of cases) {
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        await tx.execute(sql`set local enable_sort = off`);
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as {
          rows: { 'QUERY PLAN': string }[];
        };
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan, index).toContain(`Index Only Scan using ${index} `);
    }
  });
});
