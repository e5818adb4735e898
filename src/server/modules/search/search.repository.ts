import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/contains-pattern.ts';
import { songs } from '../../db/schema/index.ts';
import { queryRows, queryRowsNamed } from '../../db/sql-results.ts';

/*
 * Search's SQL (spec §7; ADR 0006 "Search plan", ADR 0011). It reads the songs module's
 * tables and never writes them: `songs`, and the small tables that songs' own triggers keep
 * (`search_terms`, `song_genres`, `song_artists`, migration 0003). Songs stays their one
 * writer; this module is told of its writes through the songs module (`onCatalogueWrite`)
 * to drop its answer cache.
 */

export type SongRow = typeof songs.$inferSelect;
export type SongSort = 'relevance' | 'popular' | 'recent';
/** A song search: the query, an optional genre (lower-cased), the sort and the page size. */
export type SongSearch = { query: string; genre: string | null; sort: SongSort; limit: number };

export type SearchRepository = ReturnType<typeof createSearchRepository>;

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

/**
 * What separates the words of `search_terms`: ASCII white space and punctuation, the class
 * `[\t\n\v\f\r !-/:-@[-\`{-~]` of `song_terms()` in migration 0003 (ASCII only, so that
 * both engines split alike whatever their locale). Capturing, so that `split` keeps them.
 */
const TERM_SEPARATORS = /([\t\n\v\f\r !-/:-@[-`{-~]+)/;
/** The typo pass corrects words of at least 3 characters (shorter ones have no trigram)… */
const MIN_CORRECTED_LENGTH = 3;
/** …and at most this many words of a query: one indexed lookup each. */
const MAX_CORRECTED_WORDS = 8;
/** At most this many words of a query bound its title matches (one lookup each). */
const MAX_BOUND_WORDS = 8;
/**
 * A query is looked up without the head when at most SPARSE_TITLES titles can contain it
 * and the genre values and artists that contain it are few enough: for popular and recent
 * each gives at most `limit` songs (SPARSE_VALUES of them); for relevance only the `limit`
 * nearest are read, after their similarity is computed (SPARSE_NAMES of them).
 */
const SPARSE_TITLES = 1000;
const SPARSE_VALUES = 50;
const SPARSE_NAMES = 2000;

/**
 * What the small tables say about a query before songs is read: an upper bound on the
 * titles that can contain it (null when no word of it can be looked up), how many genre
 * values and artists contain it, and the title words or pairs that a title containing it
 * must hold.
 */
type SearchStats = {
  titles: number | null;
  genres: number;
  artists: number;
  /** The words or pairs a title containing q must hold (titleKeys); null: trigrams find them. */
  titleKeys: string[] | null;
};

/**
 * A title contains q only if every word of q is a word of the title — whole between two
 * separators of q, the end of a word before the first one, the start of one after the last,
 * anywhere in a word when q is one word. So the titles holding such words, summed per word
 * of q, bound the titles containing q; the smallest sum is the bound. A word under 3
 * characters has no trigram: the words are then read in full, a table far smaller than
 * songs. Null when q is nothing but separators.
 */
function titleBound(query: string): SQL | null {
  const parts = query.split(TERM_SEPARATORS);
  const last = parts.length - 1;
  const sums: SQL[] = [];
  for (let i = 0; i <= last && sums.length < MAX_BOUND_WORDS; i += 2) {
    const w = parts[i]!;
    if (w === '') continue;
    // Lower-cased by the database, as the words were. No ASCII punctuation is left in a
    // word, so `%`, `_` and `\` need no escaping.
    const test =
      i > 0 && i < last
        ? sql`t.term = lower(${w})`
        : i > 0
          ? sql`t.term like lower(${w}) || '%'`
          : i < last
            ? sql`t.term like '%' || lower(${w})`
            : sql`t.term like '%' || lower(${w}) || '%'`;
    sums.push(
      sql`select coalesce(sum(t.titles), 0) as n from search_terms t where t.titles > 0 and ${test}`,
    );
  }
  return sums.length === 0
    ? null
    : sql`(select min(b.n) from (${sql.join(sums, sql` union all `)}) b)`;
}

/**
 * Within a genre, the titles holding a query's keys are filtered by genre when there are at
 * most this many; more, and they are read through the genre's index too.
 */
const KEYED_TITLES = 5000;

/**
 * At most this many pairs of words (a phrase) or words (one word) are looked up for a
 * query's titles; more, and its titles are found by trigrams.
 */
const MAX_TITLE_KEYS = 1024;

/**
 * The keys a title containing q must hold in one of the GIN indexes of migration 0011:
 * `title_words()` for one word (it lies inside one word of the title, so a title holding a
 * catalogue word that contains it contains it: the keys find exactly the matches, where
 * trigrams find titles sharing its trigrams anywhere and recheck them), `title_pairs()` for
 * a phrase (phrasePairs). Null when q is neither (nothing but separators, or a word between
 * separators, which trigrams find).
 */
type TitleKeys = { index: 'title_words' | 'title_pairs'; keys: SQL };

function titleKeys(query: string): TitleKeys | null {
  const pairs = phrasePairs(query);
  if (pairs) return { index: 'title_pairs', keys: pairs };
  if (query === '' || TERM_SEPARATORS.test(query)) return null;
  return {
    index: 'title_words',
    keys: sql`(select case when count(*) <= ${sql.raw(String(MAX_TITLE_KEYS))}
        then coalesce(array_agg(t.term), '{}') end
      from search_terms t where t.titles > 0 and t.term like '%' || lower(${query}) || '%')`,
  };
}

/**
 * A title contains a phrase (q of two words or more) only if two adjacent words of the title
 * are: one ending in q's first word (that word itself when q starts with a separator), and
 * one starting with its second (that word itself when more of q follows), with q's
 * separators between them, exactly (they lie between letters on both sides). The
 * catalogue's title words that can be each (from search_terms), paired as `title_pairs()`
 * (migration 0011) pairs them: an array of at most MAX_TITLE_KEYS pairs, null when there
 * would be more; the whole expression null when q has fewer than two words.
 */
function phrasePairs(query: string): SQL | null {
  const parts = query.split(TERM_SEPARATORS);
  const last = parts.length - 1;
  const first = parts[0] === '' ? 2 : 0;
  const second = first + 2;
  if (second > last || parts[first] === '' || parts[second] === '') return null;
  const [a, b] = [parts[first]!, parts[second]!];
  const firsts = sql`select t.term from search_terms t where t.titles > 0 and ${
    first > 0 ? sql`t.term = lower(${a})` : sql`t.term like '%' || lower(${a})`
  }`;
  const seconds = sql`select t.term from search_terms t where t.titles > 0 and ${
    second < last ? sql`t.term = lower(${b})` : sql`t.term like lower(${b}) || '%'`
  }`;
  // Counted before they are paired, so that two short words never build a large product.
  return sql`(select case
    when (select count(*) from (${firsts}) f) * (select count(*) from (${seconds}) s)
      <= ${sql.raw(String(MAX_TITLE_KEYS))}
    then (select coalesce(array_agg(f.term || ${parts[first + 1]!} || s.term), '{}')
      from (${firsts}) f cross join (${seconds}) s)
    end)`;
}

type SearchIdsInput = {
  query: string;
  pattern: string;
  genre: string | null;
  sort: SongSort;
  limit: number;
};

/**
 * The branches of a search that can find anything: a side the small tables say nothing
 * matches (no title can contain q, no genre value or artist name does) is left out of the
 * query, so it is neither planned nor run. Planning a branch over songs weighs each of its
 * indexes, about a third of a millisecond per branch; and a title side with nothing to look
 * up by would scan every title for a query too short for trigrams ('xu': 250 ms at 1M).
 */
function sides(
  stats: SearchStats,
  branches: { titles: () => SQL[]; genres: () => SQL; artists: () => SQL },
): SQL[] {
  return [
    ...(stats.titles !== 0 ? branches.titles() : []),
    ...(stats.genres > 0 ? [branches.genres()] : []),
    ...(stats.artists > 0 ? [branches.artists()] : []),
  ];
}

/**
 * The SQL of a search (ADR 0006 "Search plan", ADR 0011). All of it names its own aliases
 * (`s`, `w`, `c`, …) so that nothing binds to the outer `songs` of `search`.
 */
function searchSql(input: SearchIdsInput) {
  const { query, pattern } = input;
  const limit = Math.max(1, Math.trunc(input.limit));
  const n = sql.raw(String(limit));
  const window = sql.raw(String(SEARCH_WINDOW));
  // ILIKE where a trigram index reads it (an index condition); elsewhere, to filter rows
  // already read, `has`: the same test (a database of a multibyte encoding runs ILIKE as
  // LIKE over lower(pattern) and lower(value), and the pattern is q with its wildcards
  // escaped), with lower(q) folded once instead of on every row. The head's filter of
  // 1,000 rows went from 1.3-1.9 to 0.7 ms.
  const ilike = (column: string) => sql`${sql.raw(column)} ilike ${pattern} escape '\\'`;
  const has = (column: string) => sql`strpos(lower(${sql.raw(column)}), lower(${query})) > 0`;
  // The head's filter tests only the fields the small tables say can match: a song's genre
  // contains q only if a genre value does, its artist only if an artist name does, its title
  // only if the bound is not 0 (sides). The head is 1,000 rows; each test folds a column.
  const matches = (a: string, stats: SearchStats) =>
    sql`(${sql.join(
      sides(stats, {
        titles: () => [has(`${a}.title`)],
        genres: () => has(`${a}.genre`),
        artists: () => has(`${a}.artist`),
      }),
      sql` or `,
    )})`;
  const inGenre = (a: string) =>
    input.genre === null ? sql`true` : sql`lower(${sql.raw(a)}.genre) = ${input.genre}`;
  const cols = (a: string) =>
    sql.raw(`${a}.id, ${a}.title, ${a}.genre, ${a}.artist, ${a}.play_count, ${a}.created_at`);
  const keys =
    input.sort === 'recent'
      ? sql.raw('created_at desc, id desc')
      : sql.raw('play_count desc, created_at desc, id desc');
  const plays = sql.raw('s.play_count desc, s.created_at desc, s.id desc');
  // Relevance: the best similarity among the fields that contain the query, then play count.
  const score = (a: string) => sql`greatest(
      case when ${has(`${a}.title`)} then similarity(${sql.raw(a)}.title, ${query}) else 0 end,
      case when ${has(`${a}.genre`)} then similarity(${sql.raw(a)}.genre, ${query}) else 0 end,
      case when ${has(`${a}.artist`)} then similarity(${sql.raw(a)}.artist, ${query}) else 0 end)`;
  const byScore = (a: string) =>
    sql`${score(a)} desc, ${sql.raw(`${a}.play_count desc, ${a}.created_at desc, ${a}.id desc`)}`;

  const titleKey = titleKeys(query);
  // Every title match: through the words or pairs a title containing q must hold (the
  // fence, `offset 0`, keeps the ILIKE from being planned as a second index condition on the
  // trigram GIN, which would read what the keys spare); otherwise through the trigram GIN.
  // The keys are a subquery's value, not a constant: estimated from each of up to 1,024
  // keys, a pair such as 'r&b' seemed to hold a fifth of all titles.
  const allTitles = (stats: SearchStats, gate: SQL) => {
    if (!titleKey || !stats.titleKeys)
      return sql`select ${cols('s')} from songs s where ${ilike('s.title')} and ${inGenre('s')} and ${gate}`;
    const keyed = (genre: SQL, bound: SQL) => sql`
      select ${cols('p')} from songs p
      where ${sql.raw(titleKey.index)}(p.title) && (select ${sql.param(stats.titleKeys)}::text[])
        and ${genre} and ${gate} ${bound}`;
    if (input.genre === null)
      return sql`select ${cols('s')} from (${keyed(sql`true`, sql`offset 0`)}) s where ${has('s.title')}`;
    // Within a genre the keys' titles are read first and filtered by genre when they are
    // few. Left to the planner, the keys' index was ANDed with the genre's, which reads all
    // of the genre (10–15 ms for its 125,000 songs at 1M) where the keys gave 833 titles
    // ('lights ghost'); for keys of many titles (known once 5,001 of them are read) that
    // AND is still the plan.
    const few = sql.raw(String(KEYED_TITLES));
    return sql`select ${cols('t')} from (
      with few as materialized (${keyed(sql`true`, sql`limit ${few} + 1`)})
      select ${cols('f')} from few f
      where (select count(*) from few) <= ${few} and ${inGenre('f')} and ${has('f.title')}
      union all
      select ${cols('s')} from (
        ${keyed(inGenre('p'), sql`and (select count(*) from few) > ${few} offset 0`)}) s
      where ${has('s.title')}) t`;
  };
  // Genres and artists are few distinct values shared by many songs, so they are matched
  // where each value is one row, in tables kept by triggers (migration 0003): `song_genres`
  // (the distinct lower-cased genres) and `song_artists` (the artists with songs, named as
  // their songs are: songs.artist is the profile's display name). Each matching value then
  // gives at most its first `limit` songs in `order` from its own index: a song of that
  // value further down has `limit` better ones, all matching, and (for relevance) all of the
  // same similarity. Within a genre filter the genre side is all of that genre or nothing.
  const genreValues = sql`
    select g.genre from song_genres g
    where g.songs > 0 and ${ilike('g.genre')}
      and ${input.genre === null ? sql`true` : sql`g.genre = ${input.genre}`}`;
  const genreSongs = (gate: SQL, order: SQL) => sql`
    select ${cols('t')} from (${genreValues} and ${gate}) v cross join lateral (
      select ${cols('s')} from songs s where lower(s.genre) = v.genre
      order by ${order} limit ${n}) t`;
  // For relevance, the `limit` genre values nearest the query with their most played.
  const nearestGenreSongs = sql`
    select ${cols('t')} from (${genreSongs(sql`true`, plays)}) t
    order by similarity(t.genre, ${query}) desc, t.play_count desc, t.created_at desc, t.id desc
    limit ${n}`;
  const artistValues = sql`select a.artist_id, a.name from song_artists a
    where a.songs > 0 and ${ilike('a.name')}`;
  const artistSongs = (artists: SQL, order: SQL, bound: SQL = sql`true`) => sql`
    select ${cols('t')} from (${artists}) a cross join lateral (
      select ${cols('s')} from songs s
      where s.artist_id = a.artist_id and ${inGenre('s')} and ${bound}
      order by ${order} limit ${n}) t`;
  // Popular or recent over many artists (a first or last name shared by hundreds): each
  // artist's first song in the sort's order gives a bound, the `limit`-th best of those,
  // that every song of the page reaches (`limit` songs reach it already). So each artist is
  // read only down to that bound's play count or date: about two index probes per artist,
  // where reading each one's first `limit` read `limit` rows per artist (ADR 0011).
  const boundedArtistSongs = (artists: SQL) => {
    const lead = sql.raw(input.sort === 'recent' ? 'created_at' : 'play_count');
    const floor = sql.raw(input.sort === 'recent' ? `'-infinity'::timestamptz` : '-1');
    const bound = sql`(
      select f.${lead} from (${artists}) b cross join lateral (
        select s.play_count, s.created_at, s.id from songs s
        where s.artist_id = b.artist_id and ${inGenre('s')}
        order by ${keys} limit 1) f
      order by ${keys} offset ${sql.raw(String(limit - 1))} limit 1)`;
    return artistSongs(artists, keys, sql`s.${lead} >= coalesce(${bound}, ${floor})`);
  };
  // For relevance, the `limit` artists nearest the query that have a song (in the genre);
  // `offset 0` keeps that probe out of the sort's input, so it runs only until they are found.
  const nearestArtists = sql`
    select a.artist_id from (
      select v.artist_id, similarity(v.name, ${query}) as sim from (${artistValues}) v
      order by sim desc, v.artist_id offset 0) a
    ${
      input.genre === null
        ? sql``
        : sql`where exists (select 1 from songs s where s.artist_id = a.artist_id and ${inGenre('s')})`
    }
    limit ${n}`;

  return {
    /**
     * Few matches, known from the small tables: every title match (at most SPARSE_TITLES)
     * and each matching genre's and artist's first `limit`, ranked; no read of the head.
     */
    sparse(stats: SearchStats): SQL {
      const found = sides(stats, {
        // Found whole (`offset 0`) before the ORDER BY … LIMIT: left to the planner, a rare
        // word's titles alone were read by walking the sort's index and filtering every title
        // (25,000 rows for 'muro'), where at most SPARSE_TITLES match.
        titles: () => [sql`select * from (${allTitles(stats, sql`true`)} offset 0) titles`],
        genres: () =>
          input.sort === 'relevance' ? sql`(${nearestGenreSongs})` : genreSongs(sql`true`, keys),
        artists: () =>
          artistSongs(
            input.sort === 'relevance' ? nearestArtists : artistValues,
            input.sort === 'relevance' ? plays : keys,
          ),
      });
      const order = input.sort === 'relevance' ? byScore('c') : keys;
      return sql`select c.id from (${sql.join(found, sql` union `)}) c order by ${order} limit ${n}`;
    },

    /** Many matches, or no bound: the head of the sort's index decides (ADR 0006). */
    dense(stats: SearchStats): SQL {
      // The head of the sort's index (relevance: play count), filtered by the genre first.
      const head = sql`select ${cols('s')} from songs s where ${inGenre('s')} order by ${keys} limit ${window}`;
      if (input.sort !== 'relevance') {
        // The head holds the page when it has `limit` matches (it is a prefix of the
        // order); otherwise the term is rare and its matches come from the title's GIN
        // index and the matching genres and artists. `rest` is materialized so that no plan
        // walks the ordered index filtering a rare term.
        const rare = sql`(select count(*) from win) < ${n}`;
        const rest = sides(stats, {
          titles: () => [allTitles(stats, rare)],
          genres: () => genreSongs(rare, keys),
          artists: () => boundedArtistSongs(sql`${artistValues} and ${rare}`),
        });
        return sql`
          with win as materialized (
            select ${cols('w')} from (${head}) w where ${matches('w', stats)} order by ${keys} limit ${n}
          ), rest as materialized (
            ${sql.join(rest, sql` union `)}
          )
          select id from (
            select * from win where (select count(*) from win) >= ${n}
            union all
            select * from rest
          ) c order by ${keys} limit ${n}`;
      }
      // Relevance. For a broad term the true top `limit` by similarity lies within the
      // union of each side's top `limit`: titles by GiST KNN (`lower(title) <-> q`, the
      // ILIKE as index condition; pg_trgm lowercases, so it is the title's similarity),
      // and the nearest genre values and artists. The head adds the most played matches, so
      // ties of a broad term go to popular songs. Titles: nearest first when the head saw a
      // title match of a broad term; otherwise titles are rare (a genre word such as
      // 'rock', or a rare term) and GIN finds them all, where a KNN scan finding none would
      // visit most of the GiST. Without a trigram, titles could only be read in full, so a
      // broad short term leaves them to the head.
      const indexable = trigramIndexable(query);
      const nearestTitles = indexable
        ? [
            sql`(
            select ${cols('s')} from songs s
            where ${ilike('lower(s.title)')} and ${inGenre('s')}
              and (select broad and titles from verdict)
            order by lower(s.title) <-> ${query} limit ${n})`,
          ]
        : [];
      const otherTitles = indexable
        ? sql`not (select broad and titles from verdict)`
        : sql`not (select broad from verdict)`;
      return sql`
        with win as materialized (
          select ${cols('w')} from (${head}) w where ${matches('w', stats)}
        ), verdict as materialized (
          select count(*) >= ${sql.raw(String(BROAD_MATCHES))} as broad,
            count(*) filter (where ${has('win.title')}) > 0 as titles
          from win
        ), candidates as (
          ${sql.join(
            [
              sql`select * from win`,
              ...sides(stats, {
                titles: () => [...nearestTitles, sql`(${allTitles(stats, otherTitles)})`],
                genres: () => sql`(${nearestGenreSongs})`,
                artists: () => sql`(${artistSongs(nearestArtists, plays)})`,
              }),
            ],
            sql` union `,
          )}
        )
        select c.id from candidates c order by ${byScore('c')} limit ${n}`;
    },

    /** The small tables' view of the query (see SearchStats). */
    stats(): SQL {
      return sql`select
        ${titleBound(query) ?? sql`null::bigint`} as titles,
        array_to_json(${titleKey?.keys ?? sql`null::text[]`}) as keys,
        (select count(*) from (${genreValues}) g) as genres,
        (select count(*) from (${artistValues}) a) as artists`;
    },
  };
}

export function createSearchRepository(db: Db) {
  const repository = {
    /**
     * Spec §7: title, genre or the artist's display name contains `query` (ILIKE, wildcards
     * escaped), an optional case-insensitive genre, sorted by relevance, play count or
     * recency; at most `limit`. Every path reads a bounded number of rows, whatever the term
     * (ADR 0006 "Search plan", ADR 0011): first the small tables say how many titles, genres
     * and artists can match (nothing: no read of songs at all); few, and they are looked up
     * directly; many, and the head of the sort's index decides. Then at most `limit` rows
     * are fetched by primary key.
     */
    async search(input: SongSearch): Promise<SongRow[]> {
      const pattern = containsPattern(input.query);
      const plan = searchSql({ ...input, pattern });
      const [row] = await queryRowsNamed<{
        titles: string | number | null;
        keys: string[] | null;
        genres: string | number;
        artists: string | number;
      }>(db, plan.stats());
      const stats: SearchStats = {
        // No word or pair of words that a title containing q must hold: no title contains it.
        titles: row!.keys?.length === 0 ? 0 : row!.titles === null ? null : Number(row!.titles),
        genres: Number(row!.genres),
        artists: Number(row!.artists),
        titleKeys: row!.keys,
      };
      if (stats.titles === 0 && stats.genres === 0 && stats.artists === 0) return [];
      const ids =
        stats.titles !== null &&
        stats.titles <= SPARSE_TITLES &&
        stats.genres + stats.artists <= (input.sort === 'relevance' ? SPARSE_NAMES : SPARSE_VALUES)
          ? plan.sparse(stats)
          : plan.dense(stats);
      // The ids come ranked (each plan ends in the sort's ORDER BY … LIMIT); the page keeps
      // their order rather than ranking its rows again (for relevance, three similarities a
      // row). An array, computed first: `in (subquery)` let the planner misjudge the page's
      // size and hash-join it against a scan of every song (160 ms at 1M, ADR 0011).
      return db
        .select(getTableColumns(songs))
        .from(sql`unnest(array(${ids})) with ordinality as ranked(id, rank)`)
        .innerJoin(songs, sql`${songs.id} = ranked.id`)
        .orderBy(sql`ranked.rank`);
    },

    /**
     * Spec §7 with typos forgiven (ADR 0011): the search, and when nothing contains the
     * query, the search of its corrected form (correctTypos), if any word changes. One call,
     * so that the answer cache keeps a whole answer and admission lets a search in once for
     * all its statements.
     */
    async searchForgivingTypos(input: SongSearch): Promise<SongRow[]> {
      const rows = await repository.search(input);
      if (rows.length > 0) return rows;
      const corrected = await repository.correctTypos(input.query);
      return corrected ? repository.search({ ...input, query: corrected }) : rows;
    },

    /**
     * The typo pass's correction of `query`: each of its first words that is no word of any
     * song's title, genre or artist is replaced by the closest one by trigram similarity
     * (pg_trgm's `%`, threshold 0.3) in `search_terms`, a table of those words kept by
     * triggers (migration 0003). Null when no word changes. One bounded lookup per word in a
     * table of distinct words, never a similarity scan over songs (ADR 0011).
     */
    async correctTypos(query: string): Promise<string | null> {
      const parts = query.split(TERM_SEPARATORS);
      // split() with a capturing group alternates words (even indexes) and separators.
      const words = parts
        .map((word, i) => ({ word, i }))
        .filter(({ word, i }) => i % 2 === 0 && word.length >= MIN_CORRECTED_LENGTH)
        .slice(0, MAX_CORRECTED_WORDS);
      if (words.length === 0) return null;
      const rows = await queryRows<{ i: number; term: string | null }>(
        db,
        sql`
        select w.i::int as i, (
          select t.term from search_terms t
          where t.term % lower(w.word) and t.songs > 0
          order by t.term = lower(w.word) desc, similarity(t.term, lower(w.word)) desc,
            t.songs desc, t.term
          limit 1) as term
        from json_array_elements_text(${JSON.stringify(words.map((w) => w.word))}::json)
          with ordinality as w(word, i)`,
      );
      let changed = false;
      for (const { i, term } of rows) {
        const at = words[i - 1]!.i;
        if (term === null || term === parts[at]!.toLowerCase()) continue;
        parts[at] = term;
        changed = true;
      }
      return changed ? parts.join('') : null;
    },
  };
  return repository;
}
