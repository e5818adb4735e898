import type { PodcastDto, SongDto } from '../../../contracts/songs.contract.ts';
import {
  genreFilterValue,
  type SearchSort,
  type SearchType,
} from '../../../core/validation/song.rules.ts';
import type { SongRow, SongSearch } from './search.repository.ts';

export type SearchServiceDeps = {
  /** The repository's search with typos forgiven, as the module wires it (cached, admitted). */
  searchSongs: (input: SongSearch) => Promise<SongRow[]>;
  /** The songs module's DTOs of rows (signed URLs, renditions). */
  songDtos: (rows: SongRow[]) => Promise<SongDto[]>;
  /** The songs module's external catalogue tracks for a query, as songs. */
  externalSongs: (query: string, now: Date) => Promise<SongDto[]>;
  /** The podcasts module's show search. */
  searchShows: (query: string, limit: number) => Promise<PodcastDto[]>;
};

export type SearchService = ReturnType<typeof createSearchService>;

export function createSearchService(deps: SearchServiceDeps) {
  // While the answer cache keeps an answer it hands back the same array, so its DTOs are
  // built once: a repeated search costs no renditions query and no signing. They are as old
  // as the rows (at most SEARCH_CACHE_SECONDS ≤ 1 h), and signed URLs stay valid ≥ 6 h.
  const dtoMemo = new WeakMap<SongRow[], Promise<SongDto[]>>();
  const songDtos = (rows: SongRow[]): Promise<SongDto[]> => {
    let dtos = dtoMemo.get(rows);
    if (!dtos) {
      dtos = deps.songDtos(rows);
      dtoMemo.set(rows, dtos);
      dtos.catch(() => dtoMemo.delete(rows));
    }
    return dtos;
  };

  return {
    /**
     * Spec §7 search. Blank → nothing (the client clears). Songs match on title, genre or
     * artist name; when none contains the query, a typo-tolerant pass runs, and only when it
     * finds none either do songs fall back to the external catalogue (type track, limit 20,
     * asked with the query as typed); its tracks are returned, not stored.
     */
    async search(
      input: { q: string; type: SearchType; genre?: string; sort: SearchSort; limit: number },
      now: Date,
    ): Promise<{ songs: SongDto[]; podcasts: PodcastDto[]; external: boolean }> {
      const q = input.q.trim();
      if (!q) return { songs: [], podcasts: [], external: false };
      if (input.type === 'podcasts')
        return { songs: [], podcasts: await deps.searchShows(q, input.limit), external: false };
      // Nothing contains the query: its misspelt words corrected, if any (ADR 0011).
      const rows = await deps.searchSongs({
        query: q,
        genre: genreFilterValue(input.genre),
        sort: input.sort,
        limit: input.limit,
      });
      if (rows.length > 0) return { songs: await songDtos(rows), podcasts: [], external: false };
      const tracks = await deps.externalSongs(q, now);
      return { songs: tracks.slice(0, input.limit), podcasts: [], external: tracks.length > 0 };
    },
  };
}
