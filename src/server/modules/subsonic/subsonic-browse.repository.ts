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
 * songs of one upload year (UTC), keyed by (artist_id, year); subsonic_albums holds each
 * album's totals and subsonic_song_buckets the own songs' ids per 3-hex-digit prefix, both
 * kept by triggers on songs (migration 0034) with subsonic_artists (each artist's album
 * count), so no list groups songs as it is read.
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

/** A filter's songs up to which getRandomSongs shuffles them all rather than probing. */
const RANDOM_FEW = 20_000;

/** search3's text matches up to which they are fetched and sorted rather than walked. */
const TEXT_FEW = 5000;

/**
 * A song's columns as the child shape needs them, with the caller's like as `starred` (and
 * `more` columns of tables the caller joins).
 */
export function songSelect(userId: string, more: SQL = sql``) {
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
  const repo = {
    /** Every artist with songs, with its album count and the caller's follow as `starred`. */
    async artists(userId: string, artistId?: string): Promise<BrowseArtistRow[]> {
      return queryRows<BrowseArtistRow>(
        db,
        sql`
        select a.artist_id, a.name, r.album_count, f.created_at as starred
        from subsonic_artists r
        join song_artists a on a.artist_id = r.artist_id
        left join user_follows f on f.follower_id = ${userId} and f.following_id = a.artist_id
        where a.songs > 0 ${artistId ? sql`and r.artist_id = ${artistId}` : sql``}`,
      );
    },

    /**
     * The artist index's version (subsonic_index_version): it grows with every change the
     * index can show, so an index built after reading it is current until it changes.
     */
    async indexVersion(): Promise<number | null> {
      const [row] = await queryRows<{ version: number | string }>(
        db,
        sql`select version from subsonic_index_version where id = 1`,
      );
      return row ? Number(row.version) : null;
    },

    /** Every artist with songs and its album count, for anyone (`starred` null). */
    async artistIndex(): Promise<BrowseArtistRow[]> {
      return queryRows<BrowseArtistRow>(
        db,
        sql`
        select a.artist_id, a.name, r.album_count, null as starred
        from subsonic_artists r
        join song_artists a on a.artist_id = r.artist_id
        where a.songs > 0`,
      );
    },

    /** The artists the caller follows, and since when. */
    async follows(userId: string): Promise<Map<string, Date | string>> {
      const rows = await queryRows<{ artist_id: string; at: Date | string }>(
        db,
        sql`select following_id as artist_id, created_at as at from user_follows
            where follower_id = ${userId}`,
      );
      return new Map(rows.map((r) => [r.artist_id, r.at]));
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

    /**
     * Albums (one artist's songs of one year) with their totals, in `q.order`: the page's keys
     * from a walk of one of subsonic_albums' order indexes (index-only, so a deep offset skips
     * entries, not rows), then the page's rows and the caller's likes (starred) joined. starred and recent start from the caller's own
     * likes and plays instead; random probes the shuffle index (`randomAlbums`).
     */
    async albums(userId: string, q: AlbumQuery): Promise<BrowseAlbumRow[]> {
      if (q.order === 'random') return randomAlbums(userId, q);
      const where: SQL[] = [sql`true`];
      if (q.artistId) where.push(sql`a.artist_id = ${q.artistId}`);
      if (q.year !== undefined) where.push(sql`a.year = ${q.year}`);
      if (q.order === 'byYear' && q.fromYear !== undefined && q.toYear !== undefined) {
        const lo = Math.min(q.fromYear, q.toYear);
        const hi = Math.max(q.fromYear, q.toYear);
        where.push(sql`a.year between ${lo} and ${hi}`);
      }
      if (q.order === 'byGenre' && q.genre !== undefined)
        where.push(sql`a.genres @> array[${q.genre.toLowerCase()}]::text[]`);
      if (q.text !== undefined)
        where.push(
          sql`(a.artist ilike ${containsPattern(q.text)} escape '\\' or a.year::text = ${q.text})`,
        );
      const desc = q.fromYear !== undefined && q.toYear !== undefined && q.fromYear > q.toYear;
      const byName = sql`lower(a.artist) collate "C", a.year, a.artist_id`;
      const orderBy: Record<Exclude<AlbumOrder, 'random'>, SQL> = {
        newest: sql`a.latest desc nulls last, a.artist_id, a.year`,
        frequent: sql`a.play_count desc nulls last, a.latest desc nulls last, a.artist_id, a.year`,
        recent: sql`mine_at desc, a.artist_id, a.year`,
        starred: sql`mine_at desc, a.artist_id, a.year`,
        alphabeticalByName: byName,
        alphabeticalByArtist: byName,
        byYear: desc
          ? sql`a.year desc nulls last, lower(a.artist) collate "C", a.artist_id`
          : sql`a.year, lower(a.artist) collate "C", a.artist_id`,
        byGenre: byName,
      };
      const order = orderBy[q.order];
      // starred and recent: the caller's liked or played albums are the list.
      const mine =
        q.order === 'starred'
          ? likedAlbums(userId)
          : q.order === 'recent'
            ? playedAlbums(userId)
            : null;
      // byGenre alone walks the genre's slice of subsonic_album_genres in the name order.
      const genreWalk =
        q.order === 'byGenre' &&
        q.genre !== undefined &&
        !q.artistId &&
        q.year === undefined &&
        q.text === undefined;
      const page = genreWalk
        ? sql`
          select a.* from (
            select g.artist_id, g.year, g.sort_name from subsonic_album_genres g
            where g.genre = ${q.genre!.toLowerCase()}
            order by g.sort_name collate "C", g.year, g.artist_id
            limit ${q.limit} offset ${q.offset}
          ) k
          join subsonic_albums a on a.artist_id = k.artist_id and a.year = k.year`
        : mine
          ? sql`
          select a.*, m.at as mine_at from (${mine}) m
          join subsonic_albums a on a.artist_id = m.artist_id and a.year = m.year
          where ${sql.join(where, sql` and `)}
          order by ${order} limit ${q.limit} offset ${q.offset}`
          : sql`
          select a.* from (
            select a.artist_id, a.year from subsonic_albums a
            where ${sql.join(where, sql` and `)}
            order by ${order} limit ${q.limit} offset ${q.offset}
          ) k
          join subsonic_albums a on a.artist_id = k.artist_id and a.year = k.year`;
      return queryRows<BrowseAlbumRow>(db, withStarred(userId, page, order));
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

    /**
     * Up to `limit` distinct own songs at random, without sorting the catalogue: each of
     * 2 × limit random uuids finds the first song id at or after it (songs_own_id_idx), so the
     * work is the answer's size. A filter (genre, years) first counts its songs up to
     * RANDOM_FEW in its own index: that few are shuffled; with more, the probes walk on to the
     * next song that matches (a few entries each).
     */
    async randomSongs(userId: string, limit: number, f: SongFilter): Promise<BrowseSongRow[]> {
      const where: SQL[] = [sql`s.source is null`];
      if (f.genre !== undefined) where.push(sql`lower(s.genre) = ${f.genre.toLowerCase()}`);
      if (f.fromYear !== undefined) where.push(sql`s.created_at >= ${yearStart(f.fromYear)}`);
      if (f.toYear !== undefined) where.push(sql`s.created_at < ${yearStart(f.toYear + 1)}`);
      const filter = sql.join(where, sql` and `);
      const filtered = where.length > 1;
      if (filtered) {
        const [few] = await queryRows<{ n: number | string }>(
          db,
          sql`select count(*) as n from (select 1 from songs s where ${filter} limit ${RANDOM_FEW + 1}) f`,
        );
        if (Number(few?.n ?? 0) <= RANDOM_FEW)
          return queryRows<BrowseSongRow>(
            db,
            sql`${songSelect(userId)} where ${filter} order by random() limit ${limit}`,
          );
      }
      const probed = await queryRows<BrowseSongRow>(
        db,
        sql`
        with pivots as materialized (
          select gen_random_uuid() as pivot from generate_series(1, ${limit * 2})
        ), picked as (
          select distinct x.id from pivots p
          cross join lateral (
            select s.id from songs s where ${filter} and s.id >= p.pivot order by s.id limit 1
          ) x
        ), page as (select id from picked order by random() limit ${limit})
        ${songSelect(userId)} join page on page.id = s.id`,
      );
      if (probed.length >= limit || filtered) return probed;
      // Fewer songs than the probes could tell apart (a small catalogue): shuffle them all.
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)} where ${filter} order by random() limit ${limit}`,
      );
    },

    /**
     * search3's songs. The empty query lists every song by id: subsonic_song_buckets says
     * which 3-hex-digit bucket of ids the offset falls in and how many own songs come before
     * it, so the page is read from songs_own_id_idx from the bucket's first id with a short
     * OFFSET (the songs within that bucket), at any depth. A text matches titles, or
     * artists' names (song_artists' trigram index, the songs of those artists), by title:
     * the artists are an array, so that the two index scans can be ORed (a subquery in the OR
     * could only be a filter); a common text walks songs_own_title_idx instead.
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
          with start as (
            select b.prefix, b.before from (
              select prefix, songs, sum(songs) over (order by prefix) - songs as before
              from subsonic_song_buckets
            ) b
            where b.before + b.songs > ${offset}
            order by b.prefix limit 1
          ), page as (
            select id from songs
            where source is null and id >= (select subsonic_bucket_start(prefix) from start)
            order by id limit ${limit} offset (select ${offset}::bigint - before from start)
          )
          ${songSelect(userId)} join page on page.id = s.id
          order by s.id`,
        );
      const pattern = containsPattern(text);
      const match = sql`s.source is null and (
          s.title ilike ${pattern} escape '\\'
          or (s.artist_id = any(array(select artist_id from song_artists where name ilike ${pattern} escape '\\'))
            and s.artist ilike ${pattern} escape '\\'))`;
      // The planner's guess of a text's matches can be far off, and the wrong plan costs
      // seconds: so count them (up to TEXT_FEW). That few are fetched from the indexes and
      // sorted (the subquery's OFFSET 0 keeps it from walking the title order); more are
      // dense enough that walking songs_own_title_idx meets the page soon.
      const [few] = await queryRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from (select 1 from songs s where ${match} limit ${TEXT_FEW + 1}) f`,
      );
      if (Number(few?.n ?? 0) <= TEXT_FEW)
        return queryRows<BrowseSongRow>(
          db,
          sql`
          with page as (
            select m.id from (select s.id, s.title from songs s where ${match} offset 0) m
            order by lower(m.title) collate "C", m.id
            limit ${limit} offset ${offset}
          )
          ${songSelect(userId)} join page on page.id = s.id
          order by lower(s.title) collate "C", s.id`,
        );
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        where ${match}
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
        select a.artist_id, a.name, r.album_count, f.created_at as starred
        from subsonic_artists r
        join song_artists a on a.artist_id = r.artist_id
        left join user_follows f on f.follower_id = ${userId} and f.following_id = a.artist_id
        where a.songs > 0
          ${text === null ? sql`` : sql`and a.name ilike ${containsPattern(text)} escape '\\'`}
        order by lower(a.name) collate "C", a.artist_id
        limit ${limit} offset ${offset}`,
      );
    },
  };
  return repo;

  /**
   * The caller's liked albums (their likes of own songs, grouped by album), newest like first:
   * `at` is the album's starred time.
   */
  function likedAlbums(userId: string): SQL {
    return sql`
      select s.artist_id, ${yearOf(sql`s.created_at`)} as year, max(l.created_at) as at
      from liked_songs l join songs s on s.id = l.song_id
      where l.user_id = ${userId} and s.source is null and s.artist_id is not null
      group by 1, 2`;
  }

  /** The albums the caller has played, with their last play as `at`. */
  function playedAlbums(userId: string): SQL {
    return sql`
      select s.artist_id, ${yearOf(sql`s.created_at`)} as year, max(p.played_at) as at
      from stream_analytics p join songs s on s.id = p.song_id
      where p.user_id = ${userId} and s.source is null and s.artist_id is not null
      group by 1, 2`;
  }

  /**
   * A page of subsonic_albums rows (`a.*`) as BrowseAlbumRow, with the caller's latest like
   * of each album's songs as `starred` (their likes grouped once, joined to the page), in
   * `order` again over the page's rows.
   */
  function withStarred(userId: string, page: SQL, order: SQL): SQL {
    return sql`
      with a as (${page})
      select a.artist_id, a.year, a.artist, a.song_count, a.duration_ms, a.play_count,
        a.created, a.genre, st.at as starred
      from a
      left join (${likedAlbums(userId)}) st on st.artist_id = a.artist_id and st.year = a.year
      order by ${order}`;
  }

  /**
   * `limit` distinct albums at random: 2 × limit random uuids each find the first album at or
   * after it in the shuffle index. With fewer albums than that can tell apart, all of them
   * are shuffled (the offset then applies as it did).
   */
  async function randomAlbums(userId: string, q: AlbumQuery): Promise<BrowseAlbumRow[]> {
    const where: SQL[] = [sql`true`];
    if (q.artistId) where.push(sql`x.artist_id = ${q.artistId}`);
    if (q.year !== undefined) where.push(sql`x.year = ${q.year}`);
    const filter = sql.join(where, sql` and `);
    const probed = await queryRows<BrowseAlbumRow>(
      db,
      withStarred(
        userId,
        sql`
        select a.* from (
          select distinct x.artist_id, x.year
          from (select gen_random_uuid() as pivot from generate_series(1, ${q.limit * 2}) offset 0) p
          cross join lateral (
            select x.artist_id, x.year from subsonic_albums x
            where ${filter} and x.shuffle >= p.pivot order by x.shuffle limit 1
          ) x
        ) k
        join subsonic_albums a on a.artist_id = k.artist_id and a.year = k.year
        order by random() limit ${q.limit}`,
        sql`random()`,
      ),
    );
    if (probed.length >= q.limit) return probed;
    return queryRows<BrowseAlbumRow>(
      db,
      withStarred(
        userId,
        sql`select x.* from subsonic_albums x where ${filter}
            order by random() limit ${q.limit} offset ${q.offset}`,
        sql`random()`,
      ),
    );
  }
}
