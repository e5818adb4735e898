// How a listener's candidate songs are ranked (docs/decisions/0032). The database gathers the
// candidates and their signals in one statement; this blend is pure so it can be tested alone.

/** One candidate song with what the listener's history says about it. */
export type Candidate = {
  songId: string;
  /** Who made it: the artist's account, else the artist name (lower case); '' when unknown. */
  artistKey: string;
  /** Σ over the listener's seed songs of seed weight × co-listening score (0: none). */
  coListening: number;
  /** The listener's share of plays and likes in this song's genre, 0..1. */
  genreAffinity: number;
  /** The listener's share of plays and likes of this artist, 0..1, plus a follow's bonus. */
  artistAffinity: number;
  /** songs.play_count. */
  playCount: number;
  /** Position in the catalogue's popularity order (0 first), the last tie-break. */
  popularityRank: number;
};

export const SCORE_WEIGHTS = {
  coListening: 1,
  genre: 0.6,
  artist: 0.8,
  /** Popularity's weight for a listener who never plays hits… */
  popularity: 0.15,
  /** …and what is added for one whose taste is a third or more hits (`mainstream` ≥ 1/3). */
  mainstream: 1.2,
} as const;

/*
 * Affinities count as they are, not scaled to the largest: a listener whose plays are spread
 * over every genre has no strong genre, and that must not weigh like a jazz fan's jazz. Half of
 * the taste in one genre, or a third with one artist, is a full signal.
 */
const FULL_GENRE_AFFINITY = 0.5;
const FULL_ARTIST_AFFINITY = 0.3;

/**
 * Each candidate's blended score: co-listening and popularity scaled to 0..1 by their largest
 * value here, the affinities as shares of the listener's taste.
 * `mainstream` (0..1) is the share of the listener's recent taste among the catalogue's most
 * played songs: a listener of hits gets hits, a listener of a niche gets the niche.
 */
export function scoreCandidates(
  candidates: readonly Candidate[],
  mainstream = 0,
): Map<string, number> {
  const popularityWeight =
    SCORE_WEIGHTS.popularity + SCORE_WEIGHTS.mainstream * Math.min(1, Math.max(0, 3 * mainstream));
  const max = (f: (c: Candidate) => number) =>
    candidates.reduce((m, c) => Math.max(m, f(c)), 0) || 1;
  const cf = max((c) => c.coListening);
  const pop = max((c) => Math.max(0, c.playCount));
  return new Map(
    candidates.map((c) => [
      c.songId,
      SCORE_WEIGHTS.coListening * (c.coListening / cf) +
        SCORE_WEIGHTS.genre * Math.min(1, c.genreAffinity / FULL_GENRE_AFFINITY) +
        SCORE_WEIGHTS.artist * Math.min(1, c.artistAffinity / FULL_ARTIST_AFFINITY) +
        popularityWeight * (Math.max(0, c.playCount) / pop),
    ]),
  );
}

/**
 * The `limit` best candidates. A listener with a history (`personal`) gets at most
 * `perArtist` songs of one artist while other artists' songs are left, so one prolific artist
 * cannot fill the list; a listener without one gets the popularity order as it is.
 */
export function rankCandidates(
  candidates: readonly Candidate[],
  {
    limit,
    personal,
    perArtist,
    mainstream = 0,
  }: { limit: number; personal: boolean; perArtist: number; mainstream?: number },
): string[] {
  const unique = [...new Map(candidates.map((c) => [c.songId, c])).values()];
  const scores = personal ? scoreCandidates(unique, mainstream) : null;
  const ordered = unique.sort(
    (a, b) =>
      (scores ? scores.get(b.songId)! - scores.get(a.songId)! : 0) ||
      a.popularityRank - b.popularityRank ||
      (a.songId < b.songId ? -1 : a.songId > b.songId ? 1 : 0),
  );
  if (!personal) return ordered.slice(0, limit).map((c) => c.songId);
  const picked: string[] = [];
  const deferred: string[] = [];
  const perKey = new Map<string, number>();
  for (const c of ordered) {
    if (picked.length >= limit) break;
    const n = perKey.get(c.artistKey) ?? 0;
    if (c.artistKey !== '' && n >= perArtist) deferred.push(c.songId);
    else {
      perKey.set(c.artistKey, n + 1);
      picked.push(c.songId);
    }
  }
  return [...picked, ...deferred].slice(0, limit);
}

/** The genre most of `genres` share, weighted; null when none has one. */
export function dominantGenre(genres: readonly (string | null)[]): string | null {
  const counts = new Map<string, { n: number; spelling: string }>();
  for (const g of genres) {
    const key = g?.trim().toLowerCase();
    if (!key) continue;
    const entry = counts.get(key) ?? { n: 0, spelling: g!.trim() };
    entry.n++;
    counts.set(key, entry);
  }
  let best: { n: number; spelling: string } | null = null;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  // A mix is named after a genre only when it is most of it.
  return best && best.n * 2 > genres.length ? best.spelling : null;
}
