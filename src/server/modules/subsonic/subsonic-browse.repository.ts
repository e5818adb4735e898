import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/contains-pattern.ts';
import { queryRows, queryRowsNamed } from '../../db/sql-results.ts';

/*
 * The OpenSubsonic browse and search reads. They read songs, song_artists, liked_songs,
 * user_follows, stream_analytics, now_playing and users (who plays what now) for set work, as ADR 0024 allows, and write nothing.
 * What a Subsonic client sees is the own catalogue: uploads (`source is null`), never the
 * external catalogue's rows; processing and failed songs are listed, since listeners play
 * their original meanwhile (ADR 0014). Canto has no album table: an album is one artist's
 * songs of one upload year (UTC), keyed by (artist_id, year).
 */

export type BrowseSongRow = {
  id: string;
  artist_id: string;
  artist: string | null;
  title: string;
  genre: string | null;
  has_cover: boolean;
  file_key: string | null;
  file_url: string | null;
  duration_ms: number | null;
  play_count: number | string;
  created_at: Date | string;
  year: number | string;
  loudness_lufs: number | null;
  true_peak_dbtp: number | null;
  starred: Date | string | null;
};

/** A song a listener's player is playing now. */
export type NowPlayingSongRow = BrowseSongRow & {
  user_id: string;
  username: string;
  player_name: string;
  player_id: number | string;
  started_at: Date | string;
};

export type BrowseAlbumRow = {
  artist_id: string;
  year: number | string;
  artist: string | null;
  song_count: number | string;
  duration_ms: number | string;
  play_count: number | string;
  created: Date | string;
  genre: string | null;
  starred: Date | string | null;
};

export type BrowseArtistRow = {
  artist_id: string;
  name: string | null;
  album_count: number | string;
  starred: Date | string | null;
};

export type AlbumOrder =
  | 'random'
  | 'newest'
  | 'frequent'
  | 'recent'
  | 'starred'
  | 'alphabeticalByName'
  | 'alphabeticalByArtist'
  | 'byYear'
  | 'byGenre';

export type AlbumQuery = {
  order: AlbumOrder;
  limit: number;
  offset: number;
  /** One artist's albums only. */
  artistId?: string;
  /** One album only. */
  year?: number;
  /** byYear: the years between, both included; descending when fromYear > toYear. */
  fromYear?: number;
  toYear?: number;
  /** byGenre: albums holding a song of this genre (any case). */
  genre?: string;
  /** search3: albums whose artist's name contains this, or whose year is it. */
  text?: string;
};

export type SongFilter = {
  genre?: string;
  fromYear?: number;
  toYear?: number;
};

const yearOf = (col: SQL) => sql`extract(year from ${col} at time zone 'UTC')::int`;

/** The start of a UTC year, as the bound of a created_at range (the created_at indexes). */
const yearStart = (year: number) => sql`make_timestamptz(${year}::int, 1, 1, 0, 0, 0, 'UTC')`;

/**
 * A song's columns as the child shape needs them, with the caller's like as `starred` (and
 * `more` columns of tables the caller joins).
 */
function songSelect(userId: string, more: SQL = sql``) {
  return sql`
    select s.id, s.artist_id, s.artist, s.title, s.genre, s.cover_art_key is not null as has_cover,
      s.file_key, s.file_url, s.duration_ms, s.play_count, s.created_at,
      ${yearOf(sql`s.created_at`)} as year, s.loudness_lufs, s.true_peak_dbtp,
      l.created_at as starred${more}
    from songs s
    left join liked_songs l on l.user_id = ${userId} and l.song_id = s.id`;
}

export type SubsonicBrowseRepository = ReturnType<typeof createSubsonicBrowseRepository>;

export function createSubsonicBrowseRepository(db: Db) {
  return {
    /** Every artist with songs, with its album count and the caller's follow as `starred`. */
    async artists(userId: string, artistId?: string): Promise<BrowseArtistRow[]> {
      return queryRows<BrowseArtistRow>(
        db,
        sql`
        select a.artist_id, a.name, c.album_count, f.created_at as starred
        from song_artists a
        cross join lateral (
          select count(distinct ${yearOf(sql`s.created_at`)}) as album_count
          from songs s where s.artist_id = a.artist_id and s.source is null
        ) c
        left join user_follows f on f.follower_id = ${userId} and f.following_id = a.artist_id
        where a.songs > 0 and c.album_count > 0
          ${artistId ? sql`and a.artist_id = ${artistId}` : sql``}`,
      );
    },

    /** The newest upload's time: getIndexes' lastModified. */
    async lastModified(): Promise<Date | null> {
      const [row] = await queryRows<{ at: Date | string }>(
        db,
        sql`select created_at as at from songs where source is null
            order by created_at desc nulls first, id desc nulls first limit 1`,
      );
      return row ? new Date(row.at) : null;
    },

    /** Albums (one artist's songs of one year) with their totals, in `q.order`. */
    async albums(userId: string, q: AlbumQuery): Promise<BrowseAlbumRow[]> {
      const where: SQL[] = [sql`s.source is null`, sql`s.artist_id is not null`];
      if (q.artistId) where.push(sql`s.artist_id = ${q.artistId}`);
      if (q.year !== undefined)
        where.push(
          sql`s.created_at >= ${yearStart(q.year)} and s.created_at < ${yearStart(q.year + 1)}`,
        );
      if (q.order === 'byYear' && q.fromYear !== undefined && q.toYear !== undefined) {
        const lo = Math.min(q.fromYear, q.toYear);
        const hi = Math.max(q.fromYear, q.toYear);
        where.push(sql`s.created_at >= ${yearStart(lo)} and s.created_at < ${yearStart(hi + 1)}`);
      }
      const having: SQL[] = [];
      if (q.order === 'byGenre' && q.genre !== undefined)
        having.push(sql`bool_or(lower(s.genre) = ${q.genre.toLowerCase()})`);
      if (q.order === 'starred') having.push(sql`max(l.created_at) is not null`);
      if (q.order === 'recent') having.push(sql`max(p.played_at) is not null`);
      if (q.text !== undefined)
        having.push(
          sql`(max(s.artist) ilike ${containsPattern(q.text)} escape '\\' or ${yearOf(sql`min(s.created_at)`)}::text = ${q.text})`,
        );
      const desc = q.fromYear !== undefined && q.toYear !== undefined && q.fromYear > q.toYear;
      const orderBy: Record<AlbumOrder, SQL> = {
        random: sql`random()`,
        newest: sql`max(s.created_at) desc, s.artist_id, 2`,
        frequent: sql`sum(s.play_count) desc, max(s.created_at) desc, s.artist_id, 2`,
        recent: sql`max(p.played_at) desc, s.artist_id, 2`,
        starred: sql`max(l.created_at) desc, s.artist_id, 2`,
        alphabeticalByName: sql`lower(max(s.artist)) collate "C", 2, s.artist_id`,
        alphabeticalByArtist: sql`lower(max(s.artist)) collate "C", 2, s.artist_id`,
        byYear: desc
          ? sql`2 desc, lower(max(s.artist)) collate "C", s.artist_id`
          : sql`2, lower(max(s.artist)) collate "C", s.artist_id`,
        byGenre: sql`lower(max(s.artist)) collate "C", 2, s.artist_id`,
      };
      return queryRows<BrowseAlbumRow>(
        db,
        sql`
        select s.artist_id, ${yearOf(sql`s.created_at`)} as year, max(s.artist) as artist,
          count(distinct s.id) as song_count,
          coalesce(sum(s.duration_ms), 0) as duration_ms,
          coalesce(sum(s.play_count), 0) as play_count,
          min(s.created_at) as created,
          mode() within group (order by s.genre collate "C") as genre,
          max(l.created_at) as starred
        from songs s
        left join liked_songs l on l.user_id = ${userId} and l.song_id = s.id
        ${
          q.order === 'recent'
            ? sql`left join lateral (
                select max(sa.played_at) as played_at from stream_analytics sa
                where sa.user_id = ${userId} and sa.song_id = s.id
              ) p on true`
            : sql``
        }
        where ${sql.join(where, sql` and `)}
        group by 1, 2
        ${having.length ? sql`having ${sql.join(having, sql` and `)}` : sql``}
        order by ${orderBy[q.order]}
        limit ${q.limit} offset ${q.offset}`,
      );
    },

    /** One album's songs, oldest first. */
    async albumSongs(userId: string, artistId: string, year: number): Promise<BrowseSongRow[]> {
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        where s.artist_id = ${artistId} and s.source is null
          and s.created_at >= ${yearStart(year)} and s.created_at < ${yearStart(year + 1)}
        order by s.created_at, s.id`,
      );
    },

    async song(userId: string, id: string): Promise<BrowseSongRow | null> {
      const [row] = await queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)} where s.id = ${id} and s.source is null`,
      );
      return row ?? null;
    },

    /** Which of `ids` are own songs (the ids a Subsonic client may star or scrobble). */
    async ownSongIds(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select id from songs
            where id = any(${`{${ids.join(',')}}`}::uuid[]) and source is null`,
      );
      return new Set(rows.map((r) => r.id));
    },

    /** These own songs in the order given (an id repeated, repeated); missing ones left out. */
    async songsByIds(userId: string, ids: readonly string[]): Promise<BrowseSongRow[]> {
      if (ids.length === 0) return [];
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        join unnest(${`{${ids.join(',')}}`}::uuid[]) with ordinality as x(id, ord) on x.id = s.id
        where s.source is null
        order by x.ord`,
      );
    },

    /** The caller's liked own songs, newest like first (liked_songs_user_created_idx). */
    async starredSongs(userId: string, limit: number): Promise<BrowseSongRow[]> {
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        where l.id is not null and s.source is null
        order by l.created_at desc, l.id desc
        limit ${limit}`,
      );
    },

    /** The artists the caller follows (who have own songs), newest follow first. */
    async followedArtists(userId: string, limit: number): Promise<BrowseArtistRow[]> {
      return queryRows<BrowseArtistRow>(
        db,
        sql`
        select a.artist_id, a.name, c.album_count, f.created_at as starred
        from user_follows f
        join song_artists a on a.artist_id = f.following_id
        cross join lateral (
          select count(distinct ${yearOf(sql`s.created_at`)}) as album_count
          from songs s where s.artist_id = a.artist_id and s.source is null
        ) c
        where f.follower_id = ${userId} and a.songs > 0 and c.album_count > 0
        order by f.created_at desc, f.id desc
        limit ${limit}`,
      );
    },

    /**
     * Unexpired now-playing entries at `now` with their songs and listeners' usernames,
     * newest first, in one prepared statement (apps poll it every few seconds): one
     * listener's (now_playing's key range) or everyone's (now_playing_expires_idx), two
     * texts so that each keeps its index. The listening module writes and expires the rows.
     */
    async nowPlaying(
      viewerId: string,
      everyone: boolean,
      now: Date,
      limit: number,
    ): Promise<NowPlayingSongRow[]> {
      const at = now.toISOString();
      return queryRowsNamed<NowPlayingSongRow>(
        db,
        sql`${songSelect(viewerId, sql`, np.user_id, u.email as username, np.player_name, np.player_id, np.started_at`)}
        join now_playing np on np.song_id = s.id
        join users u on u.id = np.user_id
        where ${everyone ? sql`` : sql`np.user_id = ${viewerId}::uuid and `}np.expires_at > ${at}::timestamptz
          and s.source is null
        order by np.started_at desc, np.user_id, np.player_name
        limit ${limit}`,
      );
    },

    /** Genres as written (the most common spelling of each), with song and album counts. */
    async genres(): Promise<
      { value: string; song_count: number | string; album_count: number | string }[]
    > {
      return queryRows(
        db,
        sql`
        select mode() within group (order by s.genre collate "C") as value, count(*) as song_count,
          count(distinct (s.artist_id, ${yearOf(sql`s.created_at`)})) as album_count
        from songs s
        where s.source is null and s.genre is not null and s.genre <> ''
        group by lower(s.genre)
        order by lower(s.genre)`,
      );
    },

    /** A genre's songs, newest first (the lower(genre), created_at index). */
    async songsByGenre(
      userId: string,
      genre: string,
      limit: number,
      offset: number,
    ): Promise<BrowseSongRow[]> {
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        where lower(s.genre) = ${genre.toLowerCase()} and s.source is null
        order by s.created_at desc nulls first, s.id desc nulls first
        limit ${limit} offset ${offset}`,
      );
    },

    async randomSongs(userId: string, limit: number, f: SongFilter): Promise<BrowseSongRow[]> {
      const where: SQL[] = [sql`s.source is null`];
      if (f.genre !== undefined) where.push(sql`lower(s.genre) = ${f.genre.toLowerCase()}`);
      if (f.fromYear !== undefined) where.push(sql`s.created_at >= ${yearStart(f.fromYear)}`);
      if (f.toYear !== undefined) where.push(sql`s.created_at < ${yearStart(f.toYear + 1)}`);
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)} where ${sql.join(where, sql` and `)} order by random() limit ${limit}`,
      );
    },

    /**
     * search3's songs. The empty query lists every song by id: the page's ids come from an
     * index-only scan of songs_own_id_idx (the own songs' ids, migration 0033), so that a deep
     * OFFSET skips index entries, not rows; only the page's rows are then read. A text matches
     * titles or artists' names containing it, by title.
     */
    async searchSongs(
      userId: string,
      text: string | null,
      limit: number,
      offset: number,
    ): Promise<BrowseSongRow[]> {
      if (limit === 0) return [];
      if (text === null)
        return queryRows<BrowseSongRow>(
          db,
          sql`
          with page as (
            select id from songs where source is null order by id limit ${limit} offset ${offset}
          )
          ${songSelect(userId)} join page on page.id = s.id
          order by s.id`,
        );
      const pattern = containsPattern(text);
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        where s.source is null and (s.title ilike ${pattern} escape '\\' or s.artist ilike ${pattern} escape '\\')
        order by lower(s.title) collate "C", s.id
        limit ${limit} offset ${offset}`,
      );
    },

    /** search3's artists: all (empty query) or those whose name contains `text`, by name. */
    async searchArtists(
      userId: string,
      text: string | null,
      limit: number,
      offset: number,
    ): Promise<BrowseArtistRow[]> {
      if (limit === 0) return [];
      return queryRows<BrowseArtistRow>(
        db,
        sql`
        select a.artist_id, a.name, c.album_count, f.created_at as starred
        from song_artists a
        cross join lateral (
          select count(distinct ${yearOf(sql`s.created_at`)}) as album_count
          from songs s where s.artist_id = a.artist_id and s.source is null
        ) c
        left join user_follows f on f.follower_id = ${userId} and f.following_id = a.artist_id
        where a.songs > 0 and c.album_count > 0
          ${text === null ? sql`` : sql`and a.name ilike ${containsPattern(text)} escape '\\'`}
        order by lower(a.name) collate "C", a.artist_id
        limit ${limit} offset ${offset}`,
      );
    },
  };
}
