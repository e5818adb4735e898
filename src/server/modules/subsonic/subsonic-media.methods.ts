import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ModuleContext } from '../../module-context.ts';
import {
  COVER_SIZE_MAX,
  COVER_SIZE_MIN,
  type StoredAudio,
  type StoredFile,
} from '../media/media.module.ts';
import { lyricsPlainText } from '../../../core/lyrics/lyrics-parser.ts';
import { parseSubsonicId } from './subsonic-browse.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import {
  intParam,
  notFound,
  required,
  type SubsonicBinary,
  type SubsonicMethods,
  type SubsonicParams,
} from './subsonic-method.ts';

/*
 * stream, download, getCoverArt, getLyricsBySongId and getLyrics (docs/decisions/0034).
 * The bytes go out through the media module's own sender, the /media route's path (Range,
 * 206/416, ETag, MEDIA_OFFLOAD), from the files the rows name: a client's id is only ever a
 * row's id, never part of a path. Streaming counts no play: apps report plays by scrobble.
 */

// Answers carry the caller's credentials in their URL: no shared cache may keep them. A
// stream's choice of file can change (a song becomes ready), a cover's file when it is
// replaced; the ETag lets a client revalidate either.
const STREAM_CACHE = 'private, max-age=3600';
const COVER_CACHE = 'private, max-age=86400';
/** A bitrate no rendition reaches: bigger maxBitRate values mean no limit, as 0 does. */
const MAX_BITRATE = 100_000;

/** A `format` parameter's codec among the renditions' (ADR 0014: opus, aac). */
const CODEC_OF_FORMAT: Record<string, string> = {
  opus: 'opus',
  webm: 'opus',
  aac: 'aac',
  m4a: 'aac',
  mp4: 'aac',
};

const extensionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1).toLowerCase();

/**
 * Which stored file `stream` sends: the original for `format=raw` or the original's own
 * format (and while there are no renditions yet); else among the renditions (of the asked
 * codec, when it has one) the highest bitrate within `maxBitRate` (0: no limit), or the
 * lightest when none is within it.
 */
export function chooseStream(
  audio: Pick<StoredAudio, 'original' | 'renditions'>,
  { maxBitRate, format }: { maxBitRate: number; format: string | undefined },
): StoredFile {
  const original: StoredFile = { bucket: audio.original.bucket, key: audio.original.key };
  if (format === 'raw' || (format && format === extensionOf(original.key))) return original;
  let candidates = [...audio.renditions].sort((a, b) => a.bitrateKbps - b.bitrateKbps);
  if (candidates.length === 0) return original;
  const codec = format ? CODEC_OF_FORMAT[format] : undefined;
  const ofCodec = candidates.filter((r) => r.codec === codec);
  if (ofCodec.length) candidates = ofCodec;
  const within = maxBitRate > 0 ? candidates.filter((r) => r.bitrateKbps <= maxBitRate) : [];
  const chosen = maxBitRate === 0 ? candidates.at(-1)! : (within.at(-1) ?? candidates[0]!);
  return { bucket: chosen.bucket, key: chosen.key };
}

// RFC 6266: a quoted ASCII fallback (no quotes, backslashes, separators or controls) and the
// exact name as UTF-8 in filename*.
export function attachment(name: string): string {
  const clean = name.replace(/[\p{Cc}/\\]+/gu, ' ').trim() || 'download';
  const ascii = clean
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\u0020-\u007e]/g, '_')
    .replace(/["%;]/g, '_');
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A file name of at most 200 characters that keeps its extension. */
function downloadName(audio: StoredAudio): string {
  const ext = extensionOf(audio.original.key);
  const base = (audio.artist ? `${audio.artist} - ${audio.title}` : audio.title).slice(0, 190);
  return `${base}.${ext}`;
}

const sizeParam = (params: SubsonicParams) =>
  params.get('size') ? intParam(params, 'size', 0, COVER_SIZE_MIN, COVER_SIZE_MAX) : undefined;

/** stream, download, getCoverArt, getLyricsBySongId, getLyrics. */
export function createMediaMethods(ctx: ModuleContext, deps: SubsonicDeps): SubsonicMethods {
  const { songs, podcasts, media } = deps;

  /** A song's or an episode's stored audio; anything else (or nothing) is error 70. */
  async function audioOf(params: SubsonicParams): Promise<StoredAudio> {
    const id = parseSubsonicId(required(params, 'id'));
    const audio =
      id?.kind === 'song'
        ? await songs.ownSongAudio(id.songId)
        : id?.kind === 'episode'
          ? await podcasts.episodeAudio(id.episodeId)
          : null;
    if (!audio) throw notFound('Song');
    return audio;
  }

  /** The bytes of `file`, sent as /media sends them, with the router's headers kept. */
  function fileAnswer(
    file: StoredFile,
    cacheControl: string,
    extra: OutgoingHttpHeaders = {},
  ): SubsonicBinary {
    return {
      binary: true,
      async send(request: FastifyRequest, reply: FastifyReply) {
        const outcome = await media.sendStored(request, reply, file, {
          access: { expires: undefined },
          cacheControl,
          headers: { ...(reply.getHeaders() as OutgoingHttpHeaders), ...extra },
        });
        // A row whose file is gone (the reconciler repairs it): as if the row were gone.
        if (outcome.kind === 'absent') throw notFound('File');
        if (outcome.kind === 'unsatisfiable')
          return reply
            .code(416)
            .header('content-range', `bytes */${outcome.size}`)
            .header('accept-ranges', 'bytes')
            .send();
        return undefined;
      },
    };
  }

  async function coverOf(raw: string): Promise<StoredFile | null> {
    const id = parseSubsonicId(raw);
    switch (id?.kind) {
      case 'song':
        return songs.ownCover({ songId: id.songId });
      case 'artist':
        return songs.ownCover({ artistId: id.artistId });
      case 'album':
        return songs.ownCover({ artistId: id.artistId, year: id.year });
      case 'podcast':
        return podcasts.showCover({ podcastId: id.podcastId });
      case 'episode':
        return podcasts.showCover({ episodeId: id.episodeId });
      default:
        return null;
    }
  }

  return {
    async stream(_caller, params) {
      const maxBitRate = intParam(params, 'maxBitRate', 0, 0, MAX_BITRATE);
      const format = params.get('format')?.trim().toLowerCase() || undefined;
      // timeOffset and estimateContentLength need nothing: files are whole and static, so
      // Content-Length is always exact, and seeking is by Range.
      const audio = await audioOf(params);
      return fileAnswer(chooseStream(audio, { maxBitRate, format }), STREAM_CACHE);
    },

    async download(_caller, params) {
      const audio = await audioOf(params);
      return fileAnswer(audio.original, STREAM_CACHE, {
        'content-disposition': attachment(downloadName(audio)),
      });
    },

    async getCoverArt(_caller, params) {
      const size = sizeParam(params);
      const cover = await coverOf(required(params, 'id'));
      if (!cover) throw notFound('Cover art');
      if (size === undefined) return fileAnswer(cover, COVER_CACHE);
      try {
        return fileAnswer(await media.scaledCover(cover, size), COVER_CACHE);
      } catch (error) {
        // A cover that cannot be decoded still shows at its stored size.
        ctx.log.warn({ err: error, cover: cover.key, size }, 'could not scale a cover');
        return fileAnswer(cover, COVER_CACHE);
      }
    },

    // OpenSubsonic songLyrics: one structuredLyrics (none when the song has no lyrics); the
    // file's own stamps and its [offset:], which the client applies (positive: sooner).
    async getLyricsBySongId(_caller, params) {
      const id = parseSubsonicId(required(params, 'id'));
      const song = id?.kind === 'song' ? await songs.ownLyrics(id.songId) : null;
      if (!song) throw notFound('Song');
      const { lyrics } = song;
      if (!lyrics) return { lyricsList: {} };
      return {
        lyricsList: {
          structuredLyrics: [
            {
              displayArtist: song.artist ?? '',
              displayTitle: song.title,
              lang: 'xxx',
              synced: lyrics.synced,
              ...(lyrics.synced ? { offset: lyrics.offsetMs } : {}),
              line: lyrics.lines.map((l) =>
                l.timeMs === null
                  ? { value: l.text }
                  : { start: l.timeMs + lyrics.offsetMs, value: l.text },
              ),
            },
          ],
        },
      };
    },

    // Subsonic's getLyrics: the newest own song of that artist and title, its words alone.
    async getLyrics(_caller, params) {
      const artist = params.get('artist')?.trim() || undefined;
      const title = params.get('title')?.trim() || undefined;
      if (!artist && !title) return { lyrics: {} };
      const found = await songs.ownLyricsNamed({ artist, title });
      if (!found) return { lyrics: {} };
      return {
        lyrics: {
          ...(found.artist ? { artist: found.artist } : {}),
          title: found.title,
          value: lyricsPlainText(found.lyrics),
        },
      };
    },
  };
}
