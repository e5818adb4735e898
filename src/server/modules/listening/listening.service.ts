import type {
  PlayProgress,
  PlayStarted,
  RecentlyPlayed,
  UserStats,
} from '../../../contracts/listening.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  COMPLETED_PERCENT,
  RECENTLY_PLAYED_LIMIT,
  STATS_ACTIVITY_DAYS,
  STATS_TOP,
} from '../../../core/validation/listening.rules.ts';
import type { PlaysRepository } from './plays.repository.ts';
import type { StatsRepository } from './stats.repository.ts';

export type ListeningService = ReturnType<typeof createListeningService>;

export type ListeningServiceDeps = {
  plays: PlaysRepository;
  stats: StatsRepository;
  /** The songs module's DTOs (signed URLs), in the order asked. */
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
  clock: Clock;
};

/** Listening records (docs/decisions/0016), recently played and stats (spec §2). */
export function createListeningService({ plays, stats, songsByIds, clock }: ListeningServiceDeps) {
  return {
    /** A signed-in user started a song: its record, and the song's play_count + 1. */
    async start(userId: string, songId: string): Promise<PlayStarted> {
      const row = await plays.start(userId, songId, clock.now());
      if (!row) throw new AppError(ErrorCode.songNotFound, 'Song not found');
      return { id: row.id, played_at: row.playedAt.toISOString() };
    },

    /**
     * The total heard so far in the caller's play. Another user's play answers exactly as a
     * missing one does, so ids reveal nothing.
     */
    async progress(userId: string, playId: string, listenedMs: number): Promise<PlayProgress> {
      const row = await plays.progress(userId, playId, listenedMs, COMPLETED_PERCENT);
      if (!row) throw new AppError(ErrorCode.playNotFound, 'Play not found');
      return { id: row.id, listened_ms: row.listenedMs, completed: row.completed };
    },

    async recentlyPlayed(userId: string): Promise<RecentlyPlayed> {
      const rows = await plays.recentSongPlays(userId, RECENTLY_PLAYED_LIMIT);
      const songs = new Map(
        (await songsByIds(rows.map((r) => r.songId!))).map((song) => [song.id, song]),
      );
      // A song deleted between the two reads is left out (its plays go with it anyway).
      return {
        items: rows.flatMap((r) => {
          const song = songs.get(r.songId!);
          return song ? [{ play_id: r.id, played_at: r.playedAt.toISOString(), song }] : [];
        }),
      };
    },

    /** Spec §2 Stats; "today" is the clock's UTC date. */
    async stats(userId: string): Promise<UserStats> {
      return stats.of(userId, {
        today: clock.now().toISOString().slice(0, 10),
        days: STATS_ACTIVITY_DAYS,
        top: STATS_TOP,
      });
    },
  };
}
