import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { SongDto, SongLyricsDto } from '../../../contracts/songs.contract.ts';
import { parseLyrics, type Lyrics } from '../../../core/lyrics/lyrics-parser.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  defaultSongGenre,
  defaultSongTitle,
  genreFilterValue,
  listSizes,
  songLimits,
} from '../../../core/validation/song.rules.ts';
import type {
  RenditionRow,
  SongMediaRepository,
  SongRow,
  SongsRepository,
  StoredLyrics,
  Tx,
} from './songs.repository.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import type {
  CatalogueProvider,
  ExternalTrack,
} from '../../providers/catalogue/catalogue-provider.ts';
import { probeAudio, processImage } from '../../media/media-intake.ts';
import { loudnessDto, renditionDtos, type MediaUrls } from '../../media/media-dto.ts';
import type { Log } from '../../log.ts';
import type { IncomingUpload } from '../../media/upload-form.ts';
import type { songCoverForm, songUploadForm } from './songs.forms.ts';

export type SongsServiceDeps = {
  songs: SongsRepository;
  storage: Storage;
  catalogue: CatalogueProvider;
  /** Measures uploaded audio by decoding it. */
  ffmpeg: Ffmpeg;
  log: Log;
  /** The URL clients get for a stored media URL (signed for audio): the media module's. */
  publicUrl: MediaUrls;
  /** Fault injection between an upload's steps (crash tests only, through buildApp's deps). */
  crash?: CrashPoint;
  /** The media pipeline's rows (renditions, status) and its job (docs/decisions/0014). */
  media: SongMediaRepository;
  /** Files made from a stored one on request (a rendition's opening clip): the media module's. */
  derivedFilesOf: (file: { bucket: Bucket; key: string }) => Array<{ bucket: Bucket; key: string }>;
  /** Enqueues the song's media job in `tx`, the transaction that writes its row. */
  enqueueMedia: (songId: string, tx: Tx) => Promise<unknown>;
  /** new_release to the artist's followers, in `tx` (the notifications module). */
  announceRelease: (
    artistId: string,
    release: { artist: string | null; title: string },
    tx: Tx,
  ) => Promise<unknown>;
};

export type SongsService = ReturnType<typeof createSongsService>;

const mediaUrl = (bucket: Bucket, key: string) => `/media/${bucket}/${key}`;
/**
 * songs.*_key holds `<bucket>/<object>` (catalogue.schema.ts); a bare object key (as older
 * rows may have) belongs to the column's own bucket.
 */

/**
 * A song row as the API sends it; stored `/media/…` URLs go out through `publicUrl`.
 * `renditions` are the song's rows of song_renditions, any order.
 */
export function toSongDto(
  row: SongRow,
  publicUrl: MediaUrls,
  renditions: RenditionRow[] = [],
  hasLyrics = false,
): SongDto {
  return {
    id: row.id,
    artist_id: row.artistId,
    artist: row.artist,
    title: row.title,
    genre: row.genre,
    cover_art_url: publicUrl(row.coverArtUrl),
    file_url: publicUrl(row.fileUrl),
    preview_url: publicUrl(row.previewUrl),
    source: row.source,
    duration: row.durationMs === null ? null : row.durationMs / 1000,
    play_count: row.playCount,
    created_at: row.createdAt.toISOString(),
    status: row.mediaStatus,
    renditions: renditionDtos(renditions, publicUrl),
    loudness: loudnessDto(row.loudnessLufs, row.truePeakDbtp),
    waveform_url: publicUrl(row.waveformUrl),
    has_lyrics: hasLyrics,
  };
}

/**
 * Typed lyrics checked against the song's length (the form's rule has checked the rest):
 * what to store, null for blank, or a 400 naming the line.
 */
export function lyricsToStore(text: string, durationMs: number | null): StoredLyrics | null {
  const result = parseLyrics(text, durationMs);
  if (!result.ok)
    throw new AppError(ErrorCode.validation, result.problem.message, {
      field: 'lyrics',
      ...(result.problem.line === null ? {} : { line: result.problem.line }),
    });
  return result.lyrics ? { text, synced: result.lyrics.synced } : null;
}

/** Stored lyrics as a client or Subsonic reads them (they were checked when stored). */
export function readLyrics(stored: StoredLyrics): Lyrics {
  const result = parseLyrics(stored.text);
  if (!result.ok || !result.lyrics) throw new Error('stored lyrics no longer parse');
  return result.lyrics;
}

export function externalToSongDto(t: ExternalTrack, now: Date): SongDto {
  return {
    id: `${t.source}:${t.externalId}`,
    artist_id: null,
    artist: t.artist,
    title: t.title,
    genre: t.genre,
    cover_art_url: t.coverArtUrl,
    file_url: null,
    preview_url: t.previewUrl,
    source: t.source,
    duration: t.durationMs === null ? null : t.durationMs / 1000,
    play_count: 0,
    created_at: (t.releasedAt ?? now).toISOString(),
    status: 'ready',
    renditions: [],
    loudness: null,
    waveform_url: null,
    has_lyrics: false,
  };
}

export function createSongsService(deps: SongsServiceDeps) {
  const { songs, storage, catalogue, log } = deps;
  /** Rows as DTOs with their renditions: one query for a whole list. */
  const songDtos = async (rows: SongRow[]): Promise<SongDto[]> => {
    const ready = rows.filter((r) => r.mediaStatus === 'ready').map((r) => r.id);
    const [renditions, withLyrics] = await Promise.all([
      deps.media.renditionsOf(ready),
      songs.withLyrics(rows.map((r) => r.id)),
    ]);
    const bySong = new Map<string, RenditionRow[]>();
    for (const r of renditions) bySong.set(r.songId, [...(bySong.get(r.songId) ?? []), r]);
    return rows.map((row) =>
      toSongDto(row, deps.publicUrl, bySong.get(row.id), withLyrics.has(row.id)),
    );
  };
  const songDto = async (row: SongRow): Promise<SongDto> => (await songDtos([row]))[0]!;
  /** The external catalogue's tracks for `query`, as songs: never stored (spec §7). */
  const external = async (query: string, now: Date): Promise<SongDto[]> =>
    (await catalogue.searchTracks(query, listSizes.externalFallback)).map((t) =>
      externalToSongDto(t, now),
    );
  const discard = (objects: Array<[Bucket, string]>) => discardStored(storage, log, objects);

  async function storeCover(image: Buffer): Promise<string> {
    const key = newKey('webp');
    await storage.put('cover-art', key, Readable.from([image]), {
      contentType: MEDIA_TYPES.webp,
      maxBytes: songLimits.coverMaxBytes * 4,
    });
    return key;
  }

  // Routes that change a song admit the artist role only (a revoked artist keeps no rights
  // over past uploads); this adds the other half: the song is the caller's.
  async function ownedSong(userId: string, id: string): Promise<SongRow> {
    const row = await songs.findById(id);
    if (!row) throw new AppError(ErrorCode.notFound, 'Song not found');
    if (row.artistId !== userId)
      throw new AppError(
        ErrorCode.forbidden,
        'Only the artist who uploaded this song may change it',
      );
    return row;
  }

  return {
    /** Rows as DTOs (signed URLs, renditions): for rows other modules read (search). */
    dtos: songDtos,

    external,

    /**
     * Spec §5 upload, all or nothing: the form (songs.forms.ts) checks its
     * fields as they arrive and streams the audio to a temp file (counted and sniffed); here
     * it is parsed, then stored with a server-made key; the cover is decoded and re-encoded.
     * Any failure deletes what was stored; the route removes the temp file.
     */
    async upload(
      artistId: string,
      upload: IncomingUpload<typeof songUploadForm>,
    ): Promise<SongDto> {
      const { fields, files } = await upload.read();
      const audio = files.file;
      const stored: Array<[Bucket, string]> = [];
      try {
        deps.crash?.('upload:received');
        const facts = await probeAudio(audio, deps.ffmpeg, log);
        // The duration was measured by decoding: LRC times are checked against it now.
        const lyrics = fields.lyrics ? lyricsToStore(fields.lyrics, facts.durationMs) : null;
        const cover = files.cover ? await processImage(files.cover) : null;
        const artist = await songs.displayNameOf(artistId);

        const fileKey = newKey(facts.extension);
        await storage.put('music', fileKey, fs.createReadStream(audio.path), {
          contentType: MEDIA_TYPES[facts.extension],
          maxBytes: songLimits.audioMaxBytes,
        });
        stored.push(['music', fileKey]);
        deps.crash?.('upload:audio-stored');
        const coverKey = cover ? await storeCover(cover) : null;
        if (coverKey) stored.push(['cover-art', coverKey]);
        deps.crash?.('upload:cover-stored');

        const songTitle = fields.title || defaultSongTitle(facts.tagTitle, audio.filename);
        const songGenre = fields.genre || defaultSongGenre(facts.tagGenre);
        // The job and the followers' new_release notices commit with the row: no song without
        // its job, no notice of a song that is not there.
        const row = await songs.insertWith(
          {
            artistId,
            artist,
            title: songTitle,
            genre: songGenre,
            fileKey: `music/${fileKey}`,
            fileUrl: mediaUrl('music', fileKey),
            coverArtKey: coverKey ? `cover-art/${coverKey}` : null,
            coverArtUrl: coverKey ? mediaUrl('cover-art', coverKey) : null,
            durationMs: facts.durationMs,
            // Listeners play the original until the renditions exist (docs/decisions/0014).
            mediaStatus: 'processing',
          },
          async (song, tx) => {
            await deps.enqueueMedia(song.id, tx);
            await deps.announceRelease(artistId, { artist, title: song.title }, tx);
          },
          lyrics,
        );
        deps.crash?.('upload:inserted');
        return songDto(row);
      } catch (error) {
        await discard(stored);
        throw error;
      }
    },

    /**
     * The songs among `ids` as DTOs (signed URLs, renditions), in the order of `ids`; ids of
     * songs that no longer exist are left out. For other modules' song lists.
     */
    async byIds(ids: string[]): Promise<SongDto[]> {
      const rows = new Map((await songs.findByIds([...new Set(ids)])).map((r) => [r.id, r]));
      const found = ids.flatMap((id) => rows.get(id) ?? []);
      const dtos = new Map((await songDtos([...new Set(found)])).map((d) => [d.id, d]));
      return found.map((r) => dtos.get(r.id)!);
    },

    async get(id: string): Promise<SongDto> {
      const row = await songs.findById(id);
      if (!row) throw new AppError(ErrorCode.notFound, 'Song not found');
      return songDto(row);
    },

    async edit(
      userId: string,
      id: string,
      patch: { title?: string; genre?: string | null; lyrics?: string | null },
    ): Promise<SongDto> {
      const song = await ownedSong(userId, id);
      // Checked before anything is written: a refused edit changes nothing.
      const lyrics =
        patch.lyrics === undefined
          ? undefined
          : patch.lyrics === null
            ? null
            : lyricsToStore(patch.lyrics, song.durationMs);
      if (lyrics !== undefined) await songs.setLyrics(id, lyrics);
      const change: { title?: string; genre?: string | null } = {};
      if (patch.title !== undefined) change.title = patch.title;
      if (patch.genre !== undefined) change.genre = patch.genre || null;
      if (Object.keys(change).length === 0) {
        const row = await songs.findById(id);
        if (!row) throw new AppError(ErrorCode.notFound, 'Song not found');
        return songDto(row);
      }
      const row = await songs.update(id, change);
      if (!row) throw new AppError(ErrorCode.notFound, 'Song not found');
      return songDto(row);
    },

    /** A song's lyrics as lines; 404 when the song or its lyrics are not there. */
    async lyrics(id: string): Promise<SongLyricsDto> {
      const [row, stored] = await Promise.all([songs.findById(id), songs.lyricsOf(id)]);
      if (!row) throw new AppError(ErrorCode.notFound, 'Song not found');
      if (!stored) throw new AppError(ErrorCode.notFound, 'This song has no lyrics');
      const { synced, lines } = readLyrics(stored);
      return {
        synced,
        lines: lines.map((l) => ({ time_ms: l.timeMs, text: l.text })),
        text: stored.text,
      };
    },

    /** Replaces the cover: the new file is stored first, the old one deleted after the commit. */
    async replaceCover(
      userId: string,
      id: string,
      upload: IncomingUpload<typeof songCoverForm>,
    ): Promise<SongDto> {
      await ownedSong(userId, id);
      const { files } = await upload.read();
      const image = await processImage(files.cover);
      const key = await storeCover(image);
      let result;
      try {
        result = await songs.replaceCover(id, mediaUrl('cover-art', key), `cover-art/${key}`);
      } catch (error) {
        await discard([['cover-art', key]]);
        throw error;
      }
      if (!result) {
        await discard([['cover-art', key]]);
        throw new AppError(ErrorCode.notFound, 'Song not found');
      }
      if (result.previousKey) await discard([locateStored(result.previousKey, 'cover-art')]);
      return songDto(result.row);
    },

    /**
     * Deletes the row, then its files (original, cover, renditions, waveform): a file
     * without a row is garbage, a row without a file is broken.
     */
    async remove(userId: string, id: string): Promise<void> {
      await ownedSong(userId, id);
      const deleted = await songs.delete(id);
      if (!deleted) return;
      const { row, renditionKeys } = deleted;
      const files: Array<[Bucket, string]> = [];
      if (row.fileKey) files.push(locateStored(row.fileKey, 'music'));
      if (row.coverArtKey) files.push(locateStored(row.coverArtKey, 'cover-art'));
      if (row.waveformKey) files.push(locateStored(row.waveformKey, 'music'));
      for (const key of renditionKeys) {
        const [bucket, object] = locateStored(key, 'music');
        files.push([bucket, object]);
        // A preview clip made from it goes with it.
        for (const d of deps.derivedFilesOf({ bucket, key: object })) files.push([d.bucket, d.key]);
      }
      await discard(files);
    },

    /**
     * Runs a song's media job again after it failed for good. 409 unless the
     * song's status is 'failed' (processing songs have a job already; ready ones need none).
     */
    async reprocess(userId: string, id: string): Promise<SongDto> {
      const song = await ownedSong(userId, id);
      const row = await deps.media.reprocess(id, (tx) => deps.enqueueMedia(id, tx));
      if (!row)
        throw new AppError(
          ErrorCode.conflict,
          song.mediaStatus === 'processing'
            ? 'This song is still being processed'
            : 'Only a song whose processing failed can be processed again',
          { status: song.mediaStatus },
        );
      return songDto(row);
    },

    /** Spec §2 home; when no song exists at all, the external catalogue's 'popular' tracks. */
    async home(now: Date): Promise<{ recent: SongDto[]; popular: SongDto[]; external: boolean }> {
      const n = listSizes.homeSection;
      const [recent, popular] = await Promise.all([songs.newest(n), songs.mostPlayed(n)]);
      // No newest song means no song at all.
      if (recent.length > 0) {
        return {
          recent: await songDtos(recent),
          popular: await songDtos(popular),
          external: false,
        };
      }
      const tracks = await external('popular', now);
      // The catalogue's own order is its popularity: the first six are "popular", the next "recent".
      return {
        recent: tracks.slice(n, 2 * n),
        popular: tracks.slice(0, n),
        external: tracks.length > 0,
      };
    },

    async browse(): Promise<{ trending: SongDto[]; new_releases: SongDto[] }> {
      const n = listSizes.browseSection;
      const [trending, newest] = await Promise.all([songs.mostPlayed(n), songs.newest(n)]);
      return { trending: await songDtos(trending), new_releases: await songDtos(newest) };
    },

    async list(input: { genre?: string; limit: number }): Promise<SongDto[]> {
      const genre = genreFilterValue(input.genre);
      const rows =
        genre === null ? await songs.newest(input.limit) : await songs.byGenre(genre, input.limit);
      return songDtos(rows);
    },
  };
}
