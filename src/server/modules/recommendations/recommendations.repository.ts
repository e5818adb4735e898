import { sql } from 'drizzle-orm';
import type { Candidate } from '../../../core/recommendations/recommendation-score.ts';
import { recommendationLimits as L } from '../../../core/validation/recommendation.rules.ts';
import type { Db } from '../../db/client.ts';
import { queryRows, queryRowsNamed } from '../../db/sql-results.ts';

export type RecommendationsRepository = ReturnType<typeof createRecommendationsRepository>;

type CandidateRow = {
  song_id: string;
  artist_key: string;
  co_listening: number | string;
  genre_affinity: number | string;
  artist_affinity: number | string;
  play_count: number | string;
  popularity_rank: number | string;
  personal: boolean;
  mainstream: number | string | null;
};

/**
 * The recommender's SQL (docs/decisions/0032). It reads the listening tables (plays, the
 * listener's running totals), likes, follows and songs for set work, as ADR 0024 allows, and
 * writes only its own two tables.
 */
export function createRecommendationsRepository(db: Db) {
  return {
    /**
     * One statement: the listener's seeds (recent plays weighted by recency, most played
     * songs, likes), their affinities (genre, artist, follows), and the candidates they lead
     * to — co-listened songs from song_neighbours, the top songs of the listener's genres and
     * artists, the most played songs — with every signal, minus the songs just played and
     * external tracks. Each part reads an index range; nothing scans the listener's history.
     */
    async candidates(
      userId: string,
      { genre, now }: { genre: string | null; now: Date },
    ): Promise<{ personal: boolean; mainstream: number; candidates: Candidate[] }> {
      const rows = await queryRowsNamed<CandidateRow>(db, candidatesQuery(userId, genre, now));
      return {
        // The flag is the same on every row; no rows: nothing to say, so no personal list.
        personal: rows[0]?.personal ?? false,
        mainstream: Number(rows[0]?.mainstream ?? 0),
        candidates: rows.map((r) => ({
          songId: r.song_id,
          artistKey: r.artist_key,
          coListening: Number(r.co_listening),
          genreAffinity: Number(r.genre_affinity),
          artistAffinity: Number(r.artist_affinity),
          playCount: Number(r.play_count),
          popularityRank: Number(r.popularity_rank),
        })),
      };
    },

    /**
     * Rewrites song_neighbours from the listeners' most played songs (each listener's top
     * `songsPerListener` in listener_songs): for every pair two listeners share, the cosine
     * of their listener sets, shrunk by c / (c + 2); a pair only one listener made is noise
     * and is left out (it was most of the pairs and most of the time). Each song keeps its
     * best `neighboursPerSong`. The cost grows with listeners × songsPerListener², not with
     * plays. One transaction: readers see the old table until it commits. Returns the rows
     * written.
     */
    async refreshNeighbours(): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`set local work_mem = '256MB'`);
        await tx.execute(sql`delete from song_neighbours`);
        const [row] = await queryRows<{ n: number | string }>(
          tx,
          sql`
          with top as (
            select user_id, song_id from (
              select user_id, song_id,
                row_number() over (partition by user_id order by plays desc, song_id) as rn
              from listener_songs where plays > 0
            ) t
            where rn <= ${L.songsPerListener}
          ),
          listeners as (select song_id, count(*)::float8 as n from top group by song_id),
          pairs as (
            select a.song_id as s, b.song_id as t, count(*)::float8 as c
            from top a join top b on b.user_id = a.user_id and b.song_id <> a.song_id
            group by a.song_id, b.song_id
            having count(*) >= 2
          ),
          scored as (
            select p.s, p.t, p.c / sqrt(ls.n * lt.n) * p.c / (p.c + 2) as score
            from pairs p
            join listeners ls on ls.song_id = p.s
            join listeners lt on lt.song_id = p.t
          ),
          ranked as (
            select s, t, score, row_number() over (partition by s order by score desc, t) as rn
            from scored
          ),
          written as (
            insert into song_neighbours (song_id, neighbour_id, score)
            select r.s, r.t, r.score from ranked r
            where r.rn <= ${L.neighboursPerSong}
              and exists (select 1 from songs where id = r.s)
              and exists (select 1 from songs where id = r.t)
            returning 1
          )
          select count(*) as n from written`,
        );
        return Number(row?.n ?? 0);
      });
    },

    async currentMix(userId: string): Promise<string | null> {
      const [row] = await queryRows<{ playlist_id: string }>(
        db,
        sql`select playlist_id from ai_mixes where user_id = ${userId}`,
      );
      return row?.playlist_id ?? null;
    },

    /**
     * Runs `write` in a transaction that holds the listener's AI-mix lock (two generations
     * at once make one mix, not two) and hands it the mix as it is now, then records the
     * playlist `write` returns as the listener's mix.
     */
    async withMix(
      userId: string,
      now: Date,
      write: (tx: Db, current: string | null) => Promise<string>,
    ): Promise<string> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`ai-mix:${userId}`}, 0))`,
        );
        const [row] = await queryRows<{ playlist_id: string }>(
          tx,
          sql`select playlist_id from ai_mixes where user_id = ${userId}`,
        );
        const playlistId = await write(tx, row?.playlist_id ?? null);
        await tx.execute(sql`
          insert into ai_mixes (user_id, playlist_id, generated_at)
          values (${userId}, ${playlistId}, ${now.toISOString()}::timestamptz)
          on conflict (user_id) do update
            set playlist_id = excluded.playlist_id, generated_at = excluded.generated_at`);
        return playlistId;
      });
    },
  };
}

/**
 * The candidates statement of `candidates()`, exported for the bench's EXPLAIN: the listener's
 * seeds, affinities and pool, every candidate with its signals.
 */
export function candidatesQuery(userId: string, genre: string | null, now: Date) {
  const since = new Date(now.getTime() - L.recentHours * 3_600_000).toISOString();
  return sql`
        with recent as (
          select song_id, played_at, row_number() over (order by played_at desc) as rn
          from (
            select song_id, played_at from stream_analytics
            where user_id = ${userId} and song_id is not null
            order by played_at desc limit ${L.seedPlays}
          ) r
        ),
        just_played as (
          select song_id from recent
          where rn <= ${L.recentPlays} or played_at > ${since}::timestamptz
        ),
        top as (
          select song_id, plays from listener_songs
          where user_id = ${userId} and plays > 0
          order by plays desc limit 50
        ),
        liked as (
          select song_id from liked_songs where user_id = ${userId}
          order by created_at desc limit 100
        ),
        seeds as (
          select song_id, sum(w) as w from (
            select song_id, exp(-(rn - 1) / 50.0) as w from recent
            union all
            select song_id, 0.5 * plays::float8 / max(plays) over () from top
            union all
            select song_id, 0.7 from liked
          ) s group by song_id
        ),
        seed_songs as (
          select s.song_id, s.w, so.artist_id,
            coalesce(so.artist_id::text, lower(btrim(so.artist)), '') as artist_key,
            lower(btrim(so.genre)) as genre
          from seeds s join songs so on so.id = s.song_id
        ),
        total as (select nullif(sum(w), 0) as w from seed_songs),
        hits as (
          select id from songs where source is null
          order by play_count desc, created_at desc, id desc limit 200
        ),
        mainstream as (
          select coalesce(sum(s.w) / (select w from total), 0) as share
          from seed_songs s where s.song_id in (select id from hits)
        ),
        genre_affinity as (
          select genre, sum(share) as aff from (
            select genre, w / (select w from total) * 0.5 as share
            from seed_songs where coalesce(genre, '') <> ''
            union all
            select genre, count::float8 / nullif(sum(count) over (), 0) * 0.5
            from listener_genres where user_id = ${userId} and count > 0
          ) g group by genre
        ),
        followed as (
          select following_id as artist_id from user_follows where follower_id = ${userId}
          limit 200
        ),
        artist_affinity as (
          select artist_key, (array_agg(artist_id))[1] as artist_id, sum(share) as aff from (
            select artist_key, artist_id, w / (select w from total) as share
            from seed_songs where artist_key <> ''
            union all
            select artist_id::text, artist_id, 0.5 from followed
          ) a group by artist_key
        ),
        co_listened as (
          select n.neighbour_id as song_id, sum(s.w * n.score) as co
          from seeds s join song_neighbours n on n.song_id = s.song_id
          group by n.neighbour_id
          order by co desc limit 400
        ),
        genre_pool as (
          select p.id from (
            select genre from genre_affinity order by aff desc, genre limit 3
          ) g
          cross join lateral (
            select id from songs where lower(genre) = g.genre
            order by play_count desc, created_at desc, id desc limit 50
          ) p
        ),
        artist_pool as (
          select p.id from (
            select artist_id from artist_affinity where artist_id is not null
            order by aff desc, artist_key limit 10
          ) a
          cross join lateral (
            select id from songs where artist_id = a.artist_id
            order by play_count desc, created_at desc, id desc limit 20
          ) p
        ),
        popular as (
          select id from hits where ${genre}::text is null
          union all
          (select id from songs
          where source is null and ${genre}::text is not null
            and lower(genre) = lower(${genre}::text)
          order by play_count desc, created_at desc, id desc limit 200)
        ),
        pool as (
          select array_agg(id) as ids from (
            select song_id as id from co_listened
            union select id from genre_pool
            union select id from artist_pool
            union select id from popular
          ) p
        )
        select so.id as song_id,
          coalesce(so.artist_id::text, lower(btrim(so.artist)), '') as artist_key,
          coalesce(c.co, 0) as co_listening,
          coalesce(g.aff, 0) as genre_affinity,
          coalesce(a.aff, 0) as artist_affinity,
          so.play_count,
          row_number() over (order by so.play_count desc, so.created_at desc, so.id desc) - 1
            as popularity_rank,
          exists (select 1 from seeds) or exists (select 1 from followed) as personal,
          (select share from mainstream) as mainstream
        -- By primary key: a join of the pool let the planner hash all of songs.
        from songs so
        left join co_listened c on c.song_id = so.id
        left join genre_affinity g on g.genre = lower(btrim(so.genre))
        left join artist_affinity a
          on a.artist_key = coalesce(so.artist_id::text, lower(btrim(so.artist)), '')
        where so.id = any((select ids from pool)::uuid[])
          and so.source is null
          and so.id not in (select song_id from just_played)
          and (${genre}::text is null or lower(so.genre) = lower(${genre}::text))`;
}
