import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/sql-results.ts';
import { songSelect, type BrowseSongRow } from './subsonic-browse.repository.ts';

export type SubsonicPlaylistsRepository = ReturnType<typeof createSubsonicPlaylistsRepository>;

/**
 * A playlist's songs in the child shape: reads songs and liked_songs for set work, as ADR
 * 0024 allows, and writes nothing (the library module writes playlists).
 */
export function createSubsonicPlaylistsRepository(db: Db) {
  return {
    /** The stored songs among `ids`, in the order given (ids of no song left out). */
    async songsByIds(userId: string, ids: string[]): Promise<BrowseSongRow[]> {
      if (ids.length === 0) return [];
      return queryRows<BrowseSongRow>(
        db,
        sql`${songSelect(userId)}
        join unnest(${`{${ids.join(',')}}`}::uuid[]) with ordinality as x(id, ord) on x.id = s.id
        where s.source is null
        order by x.ord`,
      );
    },
  };
}
