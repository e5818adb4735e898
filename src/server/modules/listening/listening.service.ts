import type {
  OfflinePlayBody,
  OfflinePlayRecorded,
  PlayProgress,
  PlayStarted,
  RecentlyPlayed,
  UserStats,
} from '../../../contracts/listening.contract.ts';
import type { EpisodeDto } from '../../../contracts/podcasts.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  COMPLETED_PERCENT,
  listeningMessages,
  OFFLINE_PLAY_MAX_AGE_MS,
  OFFLINE_PLAY_MAX_AHEAD_MS,
  RECENTLY_PLAYED_LIMIT,
  STATS_ACTIVITY_DAYS,
  STATS_TOP,
} from '../../../core/validation/listening.rules.ts';
import { podcastMessages } from '../../../core/validation/podcast.rules.ts';
import type { Log } from '../../log.ts';
import type { PlaysRepository, PlayProgressRow, RecordedPlay } from './plays.repository.ts';
import type { StatsRepository } from './stats.repository.ts';

export type ListeningService = ReturnType<typeof createListeningService>;

export type ListeningServiceDeps = {
  plays: PlaysRepository;
  stats: StatsRepository;
  /** The songs module's DTOs (signed URLs), in the order asked. */
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
  /** The podcasts module's, with the listener's place in each. */
  episodesByIds: (ids: string[], userId: string) => Promise<EpisodeDto[]>;
  clock: Clock;
  /** Who hears of song plays (the face's onSongPlays): told after each write commits. */
  listeners: readonly SongPlayListener[];
  log: Log;
};

/** A song play's record. */
export type SongPlay = { playId: string; userId: string; songId: string; playedAt: Date };

/**
 * A song play's heard total went from `previousMs` to `listenedMs` (committed). Reports of one
 * play are serialised, so each stretch of listening is announced exactly once; a finished play
 * recorded afterwards (a scrobble, an offline play) comes as one stretch from 0.
 */
export type SongPlayProgress = SongPlay & {
  durationMs: number | null;
  previousMs: number;
  listenedMs: number;
};

export type SongPlayListener = {
  started?: (play: SongPlay) => Promise<void>;
  progressed?: (play: SongPlayProgress) => Promise<void>;
};

/** Listening records (docs/decisions/0016), recently played and stats (spec §2). */
export function createListeningService({
  plays,
  stats,
  songsByIds,
  episodesByIds,
  clock,
  listeners,
  log,
}: ListeningServiceDeps) {
  // A listener's failure never fails the listening record, which is committed already.
  async function announce(what: 'started', play: SongPlay): Promise<void>;
  async function announce(what: 'progressed', play: SongPlayProgress): Promise<void>;
  async function announce(what: 'started' | 'progressed', play: SongPlay | SongPlayProgress) {
    for (const listener of listeners) {
      try {
        await listener[what]?.(play as SongPlayProgress);
      } catch (error) {
        log.error({ err: error, playId: play.playId }, `a song play listener (${what}) failed`);
      }
    }
  }

  return {
    /**
     * The shared completion path: every write that raises a song play's heard total announces
     * it here (progress reports, plays recorded afterwards).
     */
    async announceProgress(userId: string, row: PlayProgressRow): Promise<void> {
      if (!row.songId || row.listenedMs <= row.previousMs) return;
      await announce('progressed', {
        playId: row.id,
        userId,
        songId: row.songId,
        playedAt: row.playedAt,
        durationMs: row.durationMs,
        previousMs: row.previousMs,
        listenedMs: row.listenedMs,
      });
    },

    /** Finished plays recorded afterwards, each heard for its whole length. */
    async announceRecorded(userId: string, plays: readonly RecordedPlay[]): Promise<void> {
      for (const play of plays)
        await this.announceProgress(userId, {
          ...play,
          completed: true,
          previousMs: 0,
          durationMs: play.listenedMs,
        });
    },

    /** A signed-in user started a song: its record, and the song's play_count + 1. */
    async start(userId: string, songId: string): Promise<PlayStarted> {
      const row = await plays.start(userId, songId, clock.now());
      if (!row) throw new AppError(ErrorCode.songNotFound, 'Song not found');
      await announce('started', { playId: row.id, userId, songId, playedAt: row.playedAt });
      return { id: row.id, played_at: row.playedAt.toISOString() };
    },

    /** A signed-in user started a podcast episode: its record (recently played shows it). */
    async startEpisode(userId: string, episodeId: string): Promise<PlayStarted> {
      const row = await plays.startEpisode(userId, episodeId, clock.now());
      if (!row) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      return { id: row.id, played_at: row.playedAt.toISOString() };
    },

    /**
     * The total heard so far in the caller's play. Another user's play answers exactly as a
     * missing one does, so ids reveal nothing.
     */
    async progress(userId: string, playId: string, listenedMs: number): Promise<PlayProgress> {
      const row = await plays.progress(userId, playId, listenedMs, COMPLETED_PERCENT);
      if (!row) throw new AppError(ErrorCode.playNotFound, 'Play not found');
      await this.announceProgress(userId, row);
      return { id: row.id, listened_ms: row.listenedMs, completed: row.completed };
    },

    /**
     * A play heard offline, sent afterwards under the device's id (docs/decisions/0036): the
     * first call records it (play count, stats, revenue, as a start does), any later one only
     * raises its heard time, so a resend after a lost answer counts it once. The start is held
     * to the Subsonic scrobble's window: a minute ahead of the clock at most, 14 days old at most.
     */
    async recordOffline(
      userId: string,
      playId: string,
      body: OfflinePlayBody,
    ): Promise<OfflinePlayRecorded> {
      const startedAt = new Date(body.started_at);
      const now = clock.now().getTime();
      if (startedAt.getTime() > now + OFFLINE_PLAY_MAX_AHEAD_MS) {
        throw new AppError(ErrorCode.validation, listeningMessages.playInFuture);
      }
      if (startedAt.getTime() < now - OFFLINE_PLAY_MAX_AGE_MS) {
        throw new AppError(ErrorCode.validation, listeningMessages.playTooOld);
      }
      const item = 'song_id' in body ? { songId: body.song_id } : { episodeId: body.episode_id };
      const written = await plays.recordOffline(
        userId,
        playId,
        item,
        startedAt,
        body.listened_ms,
        COMPLETED_PERCENT,
      );
      if (!written) {
        throw 'song_id' in body
          ? new AppError(ErrorCode.songNotFound, 'Song not found')
          : new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      }
      if (!written.same) throw new AppError(ErrorCode.conflict, listeningMessages.playIdTaken);
      const row = await plays.progress(userId, playId, body.listened_ms, COMPLETED_PERCENT);
      if (!row) throw new AppError(ErrorCode.conflict, listeningMessages.playIdTaken);
      // The first send wrote the heard time with the play: announce it as heard from 0.
      await this.announceProgress(userId, written.recorded ? { ...row, previousMs: 0 } : row);
      return {
        id: row.id,
        listened_ms: row.listenedMs,
        completed: row.completed,
        recorded: written.recorded,
      };
    },

    async recentlyPlayed(userId: string): Promise<RecentlyPlayed> {
      const rows = await plays.recentPlays(userId, RECENTLY_PLAYED_LIMIT);
      const ids = (key: 'songId' | 'episodeId') => [
        ...new Set(rows.flatMap((r) => (r[key] ? [r[key]] : []))),
      ];
      const [songList, episodeList] = await Promise.all([
        songsByIds(ids('songId')),
        episodesByIds(ids('episodeId'), userId),
      ]);
      const songs = new Map(songList.map((song) => [song.id, song]));
      const episodes = new Map(episodeList.map((episode) => [episode.id, episode]));
      // A song or episode deleted between the reads is left out (its plays go with it anyway).
      return {
        items: rows.flatMap((r): RecentlyPlayed['items'] => {
          const at = { play_id: r.id, played_at: r.playedAt.toISOString() };
          const song = r.songId ? songs.get(r.songId) : undefined;
          if (song) return [{ ...at, kind: 'song', song }];
          const episode = r.episodeId ? episodes.get(r.episodeId) : undefined;
          return episode ? [{ ...at, kind: 'episode', episode }] : [];
        }),
      };
    },

    /** Spec §2 Stats; "today" is the clock's UTC date. */
    async stats(userId: string): Promise<UserStats> {
      // The listener's own plays are in their stats at once; others' wait for the fold.
      await plays.foldListenerTotalsOf(userId);
      return stats.of(userId, {
        today: clock.now().toISOString().slice(0, 10),
        days: STATS_ACTIVITY_DAYS,
        top: STATS_TOP,
      });
    },
  };
}
