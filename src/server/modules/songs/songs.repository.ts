import { desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { podcasts, profiles, songs } from '../../db/schema/index.ts';

export type SongRow = typeof songs.$inferSelect;
export type PodcastRow = typeof podcasts.$inferSelect;
export type NewSong = Pick<
  typeof songs.$inferInsert,
  | 'artistId'
  | 'artist'
  | 'title'
  | 'genre'
  | 'fileUrl'
  | 'fileKey'
  | 'coverArtUrl'
  | 'coverArtKey'
  | 'durationMs'
>;
export type SongSort = 'relevance' | 'popular' | 'recent';
export type ReleaseNotice = { title: string; message: string; link: string };

export type SongsRepository = ReturnType<typeof createSongsRepository>;

/** `%`, `_` and `\` matched literally inside `ILIKE '%…%' ESCAPE '\'`. */
export function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, '\\$&')}%`;
}

const containsCi = (column: AnyPgColumn, pattern: string) =>
  sql`${column} ilike ${pattern} escape '\\'`;

/**
 * Search reads at most this many rows of the sort's own index (play count or creation
 * date, within the genre when one is given) before it decides a term is rare. A term in
 * ≥ 2 % of songs fills a page from it; a rarer one has few matches, which the trigram GIN
 * indexes find cheaply. ADR 0006 "Search plan".
 */
export const SEARCH_WINDOW = 1000;
/** Matches in the window that make a term broad (relevance then ranks index-ordered candidates). */
const BROAD_MATCHES = 20;

/**
 * pg_trgm can only use an index for a LIKE pattern holding a run of ≥ 3 letters or digits;
 * for shorter queries a trigram index scan would read the whole index.
 */
export const trigramIndexable = (query: string) => /[\p{L}\p{N}]{3}/u.test(query);

type SearchIdsInput = {
  query: string;
  pattern: string;
  genre: string | null;
  sort: SongSort;
  limit: number;
};

/**
 * The ids of the search page, best first. All SQL here names its own aliases (`s`, `w`,
 * `c`, …) so that nothing binds to the outer `songs` of `search`.
 */
function searchIds(input: SearchIdsInput): SQL {
  const { query, pattern } = input;
  const n = sql.raw(String(Math.max(1, Math.trunc(input.limit))));
  const window = sql.raw(String(SEARCH_WINDOW));
  const ilike = (column: string) => sql`${sql.raw(column)} ilike ${pattern} escape '\\'`;
  const matches = (a: string) => sql`(${ilike(`${a}.title`)} or ${ilike(`${a}.genre`)})`;
  const inGenre = (a: string) =>
    input.genre === null ? sql`true` : sql`lower(${sql.raw(a)}.genre) = ${input.genre}`;
  const cols = (a: string) =>
    sql.raw(`${a}.id, ${a}.title, ${a}.genre, ${a}.play_count, ${a}.created_at`);
  const keys =
    input.sort === 'recent'
      ? sql.raw('created_at desc, id desc')
      : sql.raw('play_count desc, created_at desc, id desc');
  // The head of the sort's index (relevance: play count), filtered by the genre first.
  const head = sql`select ${cols('s')} from songs s where ${inGenre('s')} order by ${keys} limit ${window}`;
  // Every match, for a rare term: title and genre through their GIN indexes. Within a genre
  // filter g, a song's genre contains q exactly when g does (ILIKE lower-cases both sides),
  // so the genre side is all of g or nothing and only titles are looked up.
  const allMatches = (gate: SQL) =>
    input.genre === null
      ? sql`select ${cols('s')} from songs s where ${matches('s')} and ${gate}`
      : sql`select ${cols('s')} from songs s
          where lower(s.genre) = ${input.genre} and ${ilike('s.title')} and ${gate}
          union
          select ${cols('s')} from songs s
          where lower(s.genre) = ${input.genre} and ${ilike('s.genre')}
            and ${input.genre}::text ilike ${pattern} escape '\\' and ${gate}`;

  if (input.sort !== 'relevance') {
    // The head holds the page when it has `limit` matches (it is a prefix of the order);
    // otherwise the term is rare and all its matches come from the GIN indexes. `rest` is
    // materialized so that no plan walks the ordered index filtering a rare term.
    return sql`
      with win as materialized (
        select ${cols('w')} from (${head}) w where ${matches('w')} order by ${keys} limit ${n}
      ), rest as materialized (
        ${allMatches(sql`(select count(*) from win) < ${n}`)}
      )
      select id from (
        select * from win where (select count(*) from win) >= ${n}
        union all
        select * from rest
      ) c order by ${keys} limit ${n}`;
  }

  // Relevance: the best similarity among the fields that contain the query, then play
  // count. For a broad term the true top `limit` by similarity lies within the union of
  // each side's top `limit`: titles by GiST KNN (`lower(title) <-> q`, the ILIKE as index
  // condition; pg_trgm lowercases, so it is the title's similarity) and genres one distinct
  // value at a time (all songs of a genre value share its similarity; their most played
  // come from the genre index). The head adds the most played matches, so ties of a broad
  // term go to popular songs. A rare term ranks all its matches.
  const score = (a: string) => sql`greatest(
      case when ${ilike(`${a}.title`)} then similarity(${sql.raw(a)}.title, ${query}) else 0 end,
      case when ${ilike(`${a}.genre`)} then similarity(${sql.raw(a)}.genre, ${query}) else 0 end)`;
  // Titles: nearest first when the head saw a title match; otherwise titles are rare
  // (a genre word such as 'rock') and GIN finds them all, where a KNN scan finding none
  // would visit most of the GiST.
  const titleSide = trigramIndexable(query)
    ? sql`union (
        select ${cols('s')} from songs s
        where ${ilike('lower(s.title)')} and ${inGenre('s')}
          and (select broad and titles from verdict)
        order by lower(s.title) <-> ${query} limit ${n})
      union
      select ${cols('s')} from songs s
      where ${ilike('s.title')} and ${inGenre('s')} and (select broad and not titles from verdict)`
    : sql``;
  const genreValues =
    input.genre === null
      ? sql`select g from genres where g is not null`
      : sql`select ${input.genre}::text as g`;
  return sql`
    with recursive win as materialized (
      select ${cols('w')} from (${head}) w where ${matches('w')}
    ), verdict as materialized (
      select count(*) >= ${sql.raw(String(BROAD_MATCHES))} as broad,
        count(*) filter (where ${ilike('win.title')}) > 0 as titles
      from win
    ), genres(g) as (
      select min(lower(genre)) from songs
      union all
      select (select min(lower(s.genre)) from songs s where lower(s.genre) > genres.g)
      from genres where genres.g is not null
    ), genre_values as (
      select v.g from (${genreValues}) v
      where v.g ilike ${pattern} escape '\\' and (select broad from verdict)
    ), candidates as (
      select * from win
      ${titleSide}
      union (
        select ${cols('t')} from genre_values v cross join lateral (
          select ${cols('s')} from songs s
          where lower(s.genre) = v.g and ${ilike('s.genre')}
          order by s.play_count desc, s.created_at desc, s.id desc limit ${n}
        ) t
        order by similarity(v.g, ${query}) desc, t.play_count desc, t.created_at desc, t.id desc
        limit ${n})
      union (
        ${allMatches(sql`not (select broad from verdict)`)})
    )
    select c.id from candidates c
    order by ${score('c')} desc, c.play_count desc, c.created_at desc, c.id desc
    limit ${n}`;
}

export function createSongsRepository(db: Db) {
  return {
    async findById(id: string): Promise<SongRow | null> {
      const [row] = await db.select().from(songs).where(eq(songs.id, id)).limit(1);
      return row ?? null;
    },

    async displayNameOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: profiles.displayName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row?.name ?? null;
    },

    /**
     * The song and its `new_release` notice to every follower of the artist, in one
     * transaction; the fan-out is one INSERT … SELECT however many followers there are.
     */
    async insertAndAnnounce(
      song: NewSong,
      notice: (row: SongRow) => ReleaseNotice,
    ): Promise<SongRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(songs).values(song).returning();
        if (!row) throw new Error('song insert returned no row');
        if (row.artistId) {
          const n = notice(row);
          await tx.execute(sql`
            insert into notifications (user_id, type, title, message, link)
            select f.follower_id, 'new_release', ${n.title}, ${n.message}, ${n.link}
            from user_follows f
            where f.following_id = ${row.artistId}`);
        }
        return row;
      });
    },

    async update(
      id: string,
      patch: { title?: string; genre?: string | null },
    ): Promise<SongRow | null> {
      const [row] = await db.update(songs).set(patch).where(eq(songs.id, id)).returning();
      return row ?? null;
    },

    /** Sets the cover and returns the row with the key it replaced (to delete after commit). */
    async replaceCover(
      id: string,
      url: string,
      key: string,
    ): Promise<{ row: SongRow; previousKey: string | null } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ key: songs.coverArtKey })
          .from(songs)
          .where(eq(songs.id, id))
          .for('update')
          .limit(1);
        if (!old) return null;
        const [row] = await tx
          .update(songs)
          .set({ coverArtUrl: url, coverArtKey: key })
          .where(eq(songs.id, id))
          .returning();
        return { row: row!, previousKey: old.key };
      });
    },

    async delete(id: string): Promise<SongRow | null> {
      const [row] = await db.delete(songs).where(eq(songs.id, id)).returning();
      return row ?? null;
    },

    async newest(limit: number): Promise<SongRow[]> {
      return db.select().from(songs).orderBy(desc(songs.createdAt), desc(songs.id)).limit(limit);
    },

    async mostPlayed(limit: number): Promise<SongRow[]> {
      return db
        .select()
        .from(songs)
        .orderBy(desc(songs.playCount), desc(songs.createdAt), desc(songs.id))
        .limit(limit);
    },

    /** Newest first among songs whose genre equals `genre` ignoring case (lower(genre) index). */
    async byGenre(genre: string, limit: number): Promise<SongRow[]> {
      return db
        .select()
        .from(songs)
        .where(sql`lower(${songs.genre}) = ${genre.toLowerCase()}`)
        .orderBy(desc(songs.createdAt), desc(songs.id))
        .limit(limit);
    },

    /**
     * Spec §7: title or genre contains `query` (ILIKE, wildcards escaped), an optional
     * case-insensitive genre, sorted by relevance, play count or recency; at most `limit`.
     * Every path reads a bounded number of rows, whatever the term (ADR 0006 "Search plan"):
     * the ids come from `searchIds`, then at most `limit` rows are fetched by primary key.
     */
    async search(input: {
      query: string;
      genre: string | null;
      sort: SongSort;
      limit: number;
    }): Promise<SongRow[]> {
      const pattern = containsPattern(input.query);
      const order =
        input.sort === 'popular'
          ? [desc(songs.playCount), desc(songs.createdAt)]
          : input.sort === 'recent'
            ? [desc(songs.createdAt)]
            : [
                desc(
                  sql`greatest(
                    case when ${containsCi(songs.title, pattern)} then similarity(${songs.title}, ${input.query}) else 0 end,
                    case when ${containsCi(songs.genre, pattern)} then similarity(${songs.genre}, ${input.query}) else 0 end)`,
                ),
                desc(songs.playCount),
                desc(songs.createdAt),
              ];
      return db
        .select()
        .from(songs)
        .where(sql`${songs.id} in (${searchIds({ ...input, pattern })})`)
        .orderBy(...order, desc(songs.id))
        .limit(input.limit);
    },

    /** Spec §7: podcasts whose title or description contains `query`, best match first. */
    async searchPodcasts(query: string, limit: number): Promise<PodcastRow[]> {
      const pattern = containsPattern(query);
      return db
        .select()
        .from(podcasts)
        .where(or(containsCi(podcasts.title, pattern), containsCi(podcasts.description, pattern)))
        .orderBy(
          desc(sql`similarity(${podcasts.title}, ${query})`),
          desc(podcasts.createdAt),
          desc(podcasts.id),
        )
        .limit(limit);
    },
  };
}
