import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/sql-results.ts';

export type PlayersRepository = ReturnType<typeof createPlayersRepository>;

export type PlayQueueRow = {
  songIds: string[];
  /** The current song's place in songIds. */
  currentIndex: number | null;
  positionMs: number;
  changedAt: Date;
  changedBy: string;
};

const timeOf = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** A pg uuid[] as either driver answers it: an array, or its text form. */
function idsOf(v: string[] | string): string[] {
  if (Array.isArray(v)) return v;
  const inner = v.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',');
}

/**
 * now_playing and play_queues rows: what a listener's Subsonic players play now (read by the
 * Subsonic module's polls, by expires_at), and the queue one device saves for another.
 */
export function createPlayersRepository(db: Db) {
  return {
    /**
     * The player's song from `at` until its duration has passed (`fallbackMs` for a song of
     * unknown length), one row per (listener, player) upserted; the listener's other expired
     * rows, and anyone's expired a day ago, are swept in the same statement. False when the song does not exist.
     */
    async setNowPlaying(
      userId: string,
      playerName: string,
      songId: string,
      at: Date,
      fallbackMs: number,
    ): Promise<boolean> {
      const now = at.toISOString();
      const [row] = await queryRows<{ found: boolean }>(
        db,
        sql`
        with song as (select id, duration_ms from songs where id = ${songId}),
        swept as (
          delete from now_playing
          where not (user_id = ${userId} and player_name = ${playerName})
            -- The listener's other ended players; anyone's that stopped a day ago.
            and ((user_id = ${userId} and expires_at <= ${now}::timestamptz)
              or expires_at < ${now}::timestamptz - interval '1 day')
        ), put as (
          insert into now_playing (user_id, player_name, song_id, started_at, expires_at)
          select ${userId}, ${playerName}, song.id, ${now}::timestamptz,
            ${now}::timestamptz + make_interval(
              secs => coalesce(nullif(song.duration_ms, 0), ${fallbackMs}::int) / 1000.0)
          from song
          on conflict (user_id, player_name) do update
            set song_id = excluded.song_id, started_at = excluded.started_at,
              expires_at = excluded.expires_at
          returning 1
        )
        select exists (select 1 from song) as found`,
      );
      return row?.found === true;
    },

    async playQueue(userId: string): Promise<PlayQueueRow | null> {
      const [row] = await queryRows<{
        song_ids: string[] | string;
        current_index: number | null;
        position_ms: number | string;
        changed_at: Date | string;
        changed_by: string;
      }>(
        db,
        sql`select song_ids, current_index, position_ms, changed_at, changed_by
            from play_queues where user_id = ${userId}`,
      );
      return row
        ? {
            songIds: idsOf(row.song_ids),
            currentIndex: row.current_index === null ? null : Number(row.current_index),
            positionMs: Number(row.position_ms),
            changedAt: timeOf(row.changed_at),
            changedBy: row.changed_by,
          }
        : null;
    },

    /**
     * Replaces the listener's queue in one statement, only if every song exists (false:
     * nothing written); an empty list removes it.
     */
    async savePlayQueue(
      userId: string,
      queue: Omit<PlayQueueRow, 'songIds'> & { songIds: readonly string[] },
    ): Promise<boolean> {
      if (queue.songIds.length === 0) {
        await db.execute(sql`delete from play_queues where user_id = ${userId}`);
        return true;
      }
      const ids = uuidArray(queue.songIds);
      const [row] = await queryRows<{ ok: boolean }>(
        db,
        sql`
        with wanted as (select distinct id from unnest(${ids}::uuid[]) as w(id)),
        checked as (
          select (select count(*) from songs s join wanted w on w.id = s.id)
            = (select count(*) from wanted) as ok
        ), put as (
          insert into play_queues (user_id, song_ids, current_index, position_ms, changed_at, changed_by)
          select ${userId}, ${ids}::uuid[], ${queue.currentIndex}::int, ${queue.positionMs},
            ${queue.changedAt.toISOString()}::timestamptz, ${queue.changedBy}
          where (select ok from checked)
          on conflict (user_id) do update
            set song_ids = excluded.song_ids, current_index = excluded.current_index,
              position_ms = excluded.position_ms, changed_at = excluded.changed_at,
              changed_by = excluded.changed_by
          returning 1
        )
        select (select ok from checked) as ok`,
      );
      return row?.ok === true;
    },
  };
}
