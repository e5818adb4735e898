import { shareApi } from '../../../contracts/api/share.api.ts';
import {
  embedPath,
  sharePath,
  type EmbedKind,
  type OembedResponse,
  type SharedPlaylist,
  type SharedSong,
} from '../../../contracts/share.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import { profileName } from '../../../core/validation/profile.rules.ts';
import type { LibraryModule } from '../library/library.module.ts';
import { storedFileOf, type MediaModule, type StoredFile } from '../media/media.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';

export type SharingServiceDeps = {
  songs: Pick<SongsModule, 'songsByIds' | 'ownSongAudio'>;
  library: Pick<LibraryModule, 'sharedPlaylist'>;
  media: Pick<MediaModule, 'openingClip' | 'scaledCover' | 'imageSize'>;
  /** PUBLIC_URL without its trailing slash: canonical links and oEmbed's own origin. */
  publicUrl: string;
};

export type SharingService = ReturnType<typeof createSharingService>;

/** The embed iframe's height by kind (a compact player; a player with its track list). */
export const EMBED_HEIGHTS: Record<EmbedKind, number> = { song: 152, playlist: 352 };
/** oEmbed's `width` when the consumer sets no maxwidth (the iframe itself is 100% wide). */
const EMBED_DEFAULT_WIDTH = 456;
/** The side oEmbed's thumbnail fits in (a scaled JPEG copy of the cover). */
const THUMBNAIL_SIDE = 300;
/** How long an oEmbed consumer may keep the answer (titles and covers change rarely). */
const OEMBED_CACHE_AGE = 3600;

const notFound = (what: string) => new AppError(ErrorCode.notFound, `${what} not found`);

/** The preview's path of a song, the public URL visitors play. */
export const previewPath = (songId: string) =>
  shareApi.preview.path.replace(':id', encodeURIComponent(songId));

/** An own upload that is ready: the only songs a link shows (not processing, failed, external). */
function shareable(song: SongDto | undefined): song is SongDto {
  return song !== undefined && song.status === 'ready' && song.source === null;
}

/** What a visitor may have of a song: no file, renditions or waveform; the 30 s preview. */
export function visitorSong(song: SongDto): SongDto {
  return {
    ...song,
    file_url: null,
    renditions: [],
    waveform_url: null,
    preview_url: previewPath(song.id),
  };
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Share links and embeds (songs, public playlists) and oEmbed: what anyone, signed in or not,
 * may see of an item. A signed-in listener gets the whole song; a visitor its preview.
 */
export function createSharingService(deps: SharingServiceDeps) {
  const { songs, library, media } = deps;
  const origin = new URL(deps.publicUrl).origin;

  /** The shareable song `id` as stored, or null (not a uuid, none, not ready, external). */
  async function songOf(id: string): Promise<SongDto | null> {
    if (!isUuid(id)) return null;
    const [song] = await songs.songsByIds([id.toLowerCase()]);
    return shareable(song) ? song : null;
  }

  async function song(id: string, viewerId: string | null): Promise<SharedSong> {
    const found = await songOf(id);
    if (!found) throw notFound('Song');
    return viewerId ? { full: true, song: found } : { full: false, song: visitorSong(found) };
  }

  /**
   * A public playlist (or the viewer's own private one) with its ready songs; 404 for
   * anyone else's private playlist, as for none.
   */
  async function playlist(
    id: string,
    viewerId: string | null,
    { ownPrivate = true }: { ownPrivate?: boolean } = {},
  ): Promise<SharedPlaylist> {
    const detail = await library.sharedPlaylist(id, viewerId);
    if (!detail || (!ownPrivate && !detail.playlist.is_public)) throw notFound('Playlist');
    const ready = detail.tracks.map((t) => t.song).filter(shareable);
    return {
      full: viewerId !== null,
      id: detail.playlist.id,
      name: detail.playlist.title,
      description: detail.playlist.description,
      owner: { id: detail.playlist.user_id, name: profileName(detail.playlist.owner_display_name) },
      cover_art_url: detail.playlist.cover_art_url,
      songs: viewerId ? ready : ready.map(visitorSong),
    };
  }

  /** An absolute URL for a path of this server (crawlers and oEmbed consumers fetch them). */
  const absolute = (url: string) => (url.startsWith('/') ? `${deps.publicUrl}${url}` : url);

  /** Which item an oEmbed `url` names: one of this server's song or playlist pages or embeds. */
  function itemOfUrl(raw: string): { kind: EmbedKind; id: string } | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.origin !== origin) return null;
    const m = /^(?:\/embed)?\/(song|playlist)\/([^/]+)\/?$/.exec(url.pathname);
    if (!m) return null;
    let id: string;
    try {
      id = decodeURIComponent(m[2]!);
    } catch {
      return null;
    }
    return { kind: m[1] as EmbedKind, id };
  }

  /** oEmbed's thumbnail: the stored cover scaled, with its size (the spec wants all three). */
  async function thumbnail(cover: string | null) {
    const file = storedFileOf(cover);
    if (!file) return {};
    const scaled = await media.scaledCover(file, THUMBNAIL_SIDE);
    const { width, height } = await media.imageSize(scaled);
    return {
      thumbnail_url: absolute(`/media/${scaled.bucket}/${scaled.key}`),
      thumbnail_width: width,
      thumbnail_height: height,
    };
  }

  return {
    song,
    playlist,
    absolute,

    /**
     * A shareable song's preview: the opening of its lightest Opus rendition, made once and
     * kept; 404 for a song a link does not show, or one without an Opus rendition.
     */
    async previewFile(id: string): Promise<StoredFile> {
      const found = await songOf(id);
      const audio = found && (await songs.ownSongAudio(found.id));
      const opus = audio?.renditions
        .filter((r) => r.codec === 'opus')
        .sort((a, b) => a.bitrateKbps - b.bitrateKbps)[0];
      if (!opus) throw notFound('Song');
      return media.openingClip({ bucket: opus.bucket, key: opus.key });
    },

    /**
     * oEmbed 1.0 (oembed.com §2): a rich answer with the embed iframe for this server's
     * song or public playlist URLs; 404 for anything else, 501 for a format but JSON.
     */
    async oembed(query: {
      url: string;
      format?: string;
      maxwidth?: number;
      maxheight?: number;
    }): Promise<OembedResponse> {
      if (query.format !== undefined && query.format !== 'json')
        throw new AppError(ErrorCode.formatNotImplemented, 'Only the json format is offered', {
          format: query.format,
        });
      const item = itemOfUrl(query.url);
      if (!item) throw notFound('Item');
      let title: string;
      let author: { name: string; url: string } | undefined;
      let cover: string | null;
      if (item.kind === 'song') {
        const { song: s } = await song(item.id, null);
        title = s.artist ? `${s.title} by ${s.artist}` : s.title;
        author = s.artist_id
          ? {
              name: s.artist ?? profileName(null),
              url: `${deps.publicUrl}${sharePath('profile', s.artist_id)}`,
            }
          : undefined;
        cover = s.cover_art_url;
        item.id = s.id;
      } else {
        const p = await playlist(item.id, null);
        title = p.name;
        author = {
          name: p.owner.name,
          url: `${deps.publicUrl}${sharePath('profile', p.owner.id)}`,
        };
        cover = p.cover_art_url ?? p.songs.find((s) => s.cover_art_url)?.cover_art_url ?? null;
        item.id = p.id;
      }
      const height = Math.min(EMBED_HEIGHTS[item.kind], query.maxheight ?? Infinity);
      const width = query.maxwidth ?? EMBED_DEFAULT_WIDTH;
      const src = `${deps.publicUrl}${embedPath(item.kind, item.id)}`;
      const html =
        `<iframe src="${escapeAttr(src)}" width="${query.maxwidth ?? '100%'}" height="${height}"` +
        ` title="${escapeAttr(`${title} on Canto`)}" style="border:0;border-radius:12px"` +
        ` allow="autoplay; encrypted-media" loading="lazy"></iframe>`;
      return {
        type: 'rich',
        version: '1.0',
        title,
        ...(author && { author_name: author.name, author_url: author.url }),
        provider_name: 'Canto',
        provider_url: `${deps.publicUrl}/`,
        cache_age: OEMBED_CACHE_AGE,
        ...(await thumbnail(cover)),
        html,
        width,
        height,
      };
    },
  };
}
