import { notificationNotices } from '../../../core/validation/notification.rules.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { Lyrics } from '../../../core/lyrics/lyrics-parser.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import {
  storedFileOf,
  type MediaModule,
  type StoredAudio,
  type StoredFile,
} from '../media/media.module.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import { createItunesProvider } from '../../providers/catalogue/itunes.provider.ts';
import { catalogueWrites, type CatalogueWriteListener } from './catalogue-writes.ts';
import {
  createSongMediaRepository,
  createSongsRepository,
  type SongRow,
} from './songs.repository.ts';
import { songsRoutes } from './songs.routes.ts';
import { createSongsService, readLyrics } from './songs.service.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { enqueueMediaJob, type MediaJobKind } from '../../media/media-job.ts';

/**
 * A song's media job: songs' originals and outputs live in the music bucket (ADR 0014); the
 * migration that added it enqueues it by this name too.
 */
const SONG_MEDIA: MediaJobKind = {
  name: 'songs.media',
  idField: 'songId',
  bucket: 'music',
  label: 'song',
};

/** A song's row as stored: what other modules that read songs' tables hand back (search). */
export type { SongRow } from './songs.repository.ts';

/** What other modules may ask of the catalogue. */
export type SongsModule = FeatureModule & {
  /** Songs as the API sends them (signed media URLs), in the order of `ids`; missing ones left out. */
  songsByIds(ids: string[]): Promise<SongDto[]>;
  /** Rows read from songs' tables (search) as the API sends them, in their order. */
  songDtos(rows: SongRow[]): Promise<SongDto[]>;
  /** The external catalogue's tracks for `query` as songs (never stored; spec §7). */
  externalSongs(query: string, now: Date): Promise<SongDto[]>;
  /** The `limit` most played own songs' titles and their artists' names, each once. */
  catalogueNames(limit: number): Promise<{ titles: string[]; artists: string[] }>;
  /** Hears of every write to songs, before it starts and once it has ended (ADR 0011). */
  onCatalogueWrite(listener: CatalogueWriteListener): void;
  /**
   * An own upload's stored audio (Subsonic's stream and download): the original and its
   * renditions, by bitrate ascending (none while processing). Null for an external catalogue
   * track, a song without a stored file, or no song.
   */
  ownSongAudio(songId: string): Promise<StoredAudio | null>;
  /**
   * A stored cover for Subsonic's getCoverArt: an own song's, or the newest cover among an
   * artist's own songs (uploaded in UTC `year`, when given: an album). Null when there is none.
   */
  ownCover(
    of: { songId: string } | { artistId: string; year?: number },
  ): Promise<StoredFile | null>;
  /**
   * An own upload's title, artist and lyrics (null when it has none), for Subsonic's
   * getLyricsBySongId; null for no such song.
   */
  ownLyrics(
    songId: string,
  ): Promise<{ title: string; artist: string | null; lyrics: Lyrics | null } | null>;
  /** The newest own song's lyrics whose artist and title match, ignoring case (getLyrics). */
  ownLyricsNamed(name: {
    artist?: string;
    title?: string;
  }): Promise<{ title: string; artist: string | null; lyrics: Lyrics } | null>;
};

export type SongsSettings = {
  /** CATALOGUE_*: the external catalogue asked when the own search finds nothing. */
  catalogue: { url: string; allowPrivate: boolean; timeoutMs: number };
};

/**
 * The catalogue: upload, edit, delete, home, browse (spec §2, §5), under /api; and each
 * song's media job (renditions, loudness, waveform: docs/decisions/0014). Search is its own
 * module, which reads songs' tables and hears of their writes here.
 */
export function createSongsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    notifications,
    settings,
    crash,
  }: {
    media: Pick<MediaModule, 'publicUrl' | 'registerJob' | 'tempDir' | 'derivedFilesOf'>;
    notifications: Pick<NotificationsModule, 'notifyFollowers'>;
    settings: SongsSettings;
    /** Where crash tests stop the process between an upload's or a media job's steps. */
    crash?: CrashPoint;
  },
): SongsModule {
  // The app's one ffmpeg: upload checks in their own lane, media jobs in MEDIA_WORKERS slots.
  const { ffmpeg } = ctx;
  const media = createSongMediaRepository(ctx.database.db);
  const enqueueMedia = mediaModule.registerJob(SONG_MEDIA, media, crash);
  const writes = catalogueWrites();
  const repository = createSongsRepository(ctx.database.db);
  const songs = createSongsService({
    songs: { ...repository.reads, ...writes.announcing(repository.writes) },
    storage: ctx.storage,
    catalogue: createItunesProvider({
      baseUrl: settings.catalogue.url,
      allowPrivate: settings.catalogue.allowPrivate,
      timeoutMs: settings.catalogue.timeoutMs,
      log: ctx.log,
      clock: ctx.clock,
    }),
    ffmpeg,
    log: ctx.log,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out, so it never
    // goes stale in the database.
    publicUrl: mediaModule.publicUrl,
    crash,
    media,
    enqueueMedia,
    derivedFilesOf: mediaModule.derivedFilesOf,
    announceRelease: (artistId, { artist, title }, tx) =>
      notifications.notifyFollowers(
        artistId,
        notificationNotices.newRelease({ artistId, artist, title, kind: 'song' }),
        tx,
      ),
  });
  const routes = songsRoutes({ songs, clock: ctx.clock, tempDir: mediaModule.tempDir });
  return {
    name: 'songs',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
    songsByIds: (ids) => songs.byIds(ids),
    songDtos: songs.dtos,
    externalSongs: songs.external,
    catalogueNames: async (limit) => {
      const rows = await repository.reads.mostPlayedNames(limit);
      return {
        titles: [...new Set(rows.map((r) => r.title))],
        artists: [...new Set(rows.flatMap((r) => (r.artist ? [r.artist] : [])))],
      };
    },
    onCatalogueWrite: writes.listen,
    async ownSongAudio(songId) {
      const rows = await repository.reads.ownAudio(songId);
      const original = storedFileOf(rows[0]?.fileUrl ?? null);
      if (!original) return null;
      return {
        title: rows[0]!.title,
        artist: rows[0]!.artist,
        original,
        renditions: rows.flatMap((r) => {
          const file = storedFileOf(r.renditionUrl);
          return file && r.format && r.codec && r.bitrateKbps !== null
            ? [{ ...file, format: r.format, codec: r.codec, bitrateKbps: r.bitrateKbps }]
            : [];
        }),
      };
    },
    async ownCover(of) {
      if ('songId' in of) {
        const row = await repository.reads.findOwn(of.songId);
        return storedFileOf(row?.coverArtUrl ?? null);
      }
      return storedFileOf(await repository.reads.newestCoverOf(of.artistId, of.year));
    },
    async ownLyrics(songId) {
      const [row, stored] = await Promise.all([
        repository.reads.findOwn(songId),
        repository.reads.lyricsOf(songId),
      ]);
      if (!row) return null;
      return { title: row.title, artist: row.artist, lyrics: stored ? readLyrics(stored) : null };
    },
    async ownLyricsNamed(name) {
      const found = await repository.reads.ownLyricsNamed(name);
      return found && { title: found.title, artist: found.artist, lyrics: readLyrics(found) };
    },
  };
}

/** A song's media job, for songs written outside this module (the demo seed). */
export const enqueueSongMedia = (jobs: JobQueue, songId: string, tx?: Db) =>
  enqueueMediaJob(jobs, SONG_MEDIA, songId, tx);
