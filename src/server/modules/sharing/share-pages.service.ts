import fs from 'node:fs';
import path from 'node:path';
import { shareApi } from '../../../contracts/api/share.api.ts';
import {
  embedPath,
  sharePath,
  type EmbedKind,
  type SharedPlaylist,
  type SharedSong,
  type ShareKind,
} from '../../../contracts/share.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import { profileName } from '../../../core/validation/profile.rules.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import type { SocialModule } from '../social/social.module.ts';
import { EMBED_HEIGHTS, previewPath, type SharingService } from './sharing.service.ts';

export type SharePagesDeps = {
  sharing: SharingService;
  social: Pick<SocialModule, 'profileCard'>;
  podcasts: Pick<PodcastsModule, 'showById' | 'readyEpisode'>;
  /** PUBLIC_URL without its trailing slash. */
  publicUrl: string;
  /** The built web app (dist/web), whose embed.html the embed pages are. */
  webDir: string;
};

export type SharePages = ReturnType<typeof createSharePages>;

/** The twitter:player width the embed is laid out for (its iframe is 100% wide anyway). */
const PLAYER_WIDTH = 456;
/** The id of the script element that carries an embed page's item (the embed app reads it). */
export const EMBED_DATA_ID = 'canto-embed-data';
/** A page's title when its item is not shown: nothing of the item. */
const GENERIC_HEAD = '<title>Canto</title>';
const NOT_SHOWN = `${GENERIC_HEAD}<meta name="robots" content="noindex">`;

/** What an embed page carries for its app. */
export type EmbedData =
  | { kind: 'song'; item: SharedSong; canonicalUrl: string }
  | { kind: 'playlist'; item: SharedPlaylist; canonicalUrl: string };

/** Text for HTML, inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON inside a <script> element: no `<` may close it or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Shown in an embed's frame for an item that is private, gone or not ready. */
const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Canto</title>
<style>body{margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;font:16px system-ui,sans-serif;background:#0b0a10;color:#e5e5e5}</style>
</head><body><main><p>This item isn't available</p></main></body></html>
`;

/** Until the web build writes embed.html: a page with the head the embed needs and no app. */
const FALLBACK_EMBED = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><div id="root"></div></body></html>
`;

type Meta = [attribute: 'name' | 'property', key: string, content: string | null | undefined];

/**
 * The pages behind share links: link-card tags (OpenGraph, Twitter, oEmbed discovery) in the
 * web app's page for /song, /playlist, /profile, /show and /episode, and the embed pages. A
 * card shows what a visitor may see, never more: no full file, no private playlist.
 */
export function createSharePages(deps: SharePagesDeps) {
  const { sharing, publicUrl } = deps;
  const canonical = (kind: ShareKind, id: string) => `${publicUrl}${sharePath(kind, id)}`;
  const absolute = (url: string | null | undefined) => (url ? sharing.absolute(url) : null);

  const tags = (title: string, metas: Meta[], links: string[] = []) =>
    `<title>${escapeHtml(title)}</title>` +
    metas
      .filter((m): m is [Meta[0], string, string] => typeof m[2] === 'string' && m[2] !== '')
      .map(([attr, key, content]) => `<meta ${attr}="${key}" content="${escapeHtml(content)}">`)
      .join('') +
    links.join('');

  const oembedLink = (url: string, title: string) =>
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(
      `${publicUrl}${shareApi.oembed.path}?${new URLSearchParams({ url, format: 'json' })}`,
    )}" title="${escapeHtml(title)}">`;
  const canonicalLink = (url: string) => `<link rel="canonical" href="${escapeHtml(url)}">`;

  /** The card of a player item: the embed as twitter:player, when it has an image to show. */
  const player = (kind: EmbedKind, id: string, image: string | null): Meta[] =>
    image
      ? [
          ['name', 'twitter:card', 'player'],
          ['name', 'twitter:player', `${publicUrl}${embedPath(kind, id)}`],
          ['name', 'twitter:player:width', String(PLAYER_WIDTH)],
          ['name', 'twitter:player:height', String(EMBED_HEIGHTS[kind])],
        ]
      : [['name', 'twitter:card', 'summary']];

  const common = (
    title: string,
    description: string,
    url: string,
    image: string | null,
  ): Meta[] => [
    ['name', 'description', description],
    ['property', 'og:site_name', 'Canto'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'og:image', image],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', image],
  ];

  function songHead({ song }: SharedSong): string {
    const url = canonical('song', song.id);
    const by = song.artist ? ` by ${song.artist}` : '';
    const description = `Listen to ${song.title}${by} on Canto.`;
    const image = absolute(song.cover_art_url);
    return tags(
      song.artist ? `${song.title} · ${song.artist} | Canto` : `${song.title} | Canto`,
      [
        ...common(song.title, description, url, image),
        ['property', 'og:type', 'music.song'],
        ['property', 'og:audio', `${publicUrl}${previewPath(song.id)}`],
        ['property', 'og:audio:type', 'audio/webm'],
        ['property', 'music:duration', song.duration ? String(Math.round(song.duration)) : null],
        [
          'property',
          'music:musician',
          song.artist_id ? canonical('profile', song.artist_id) : null,
        ],
        ...player('song', song.id, image),
      ],
      [canonicalLink(url), oembedLink(url, song.title)],
    );
  }

  function playlistHead(playlist: SharedPlaylist): string {
    const url = canonical('playlist', playlist.id);
    const count = playlist.songs.length;
    const description =
      playlist.description ||
      `A playlist by ${playlist.owner.name} on Canto · ${count} ${count === 1 ? 'song' : 'songs'}`;
    const image = absolute(
      playlist.cover_art_url ?? playlist.songs.find((s) => s.cover_art_url)?.cover_art_url,
    );
    return tags(
      `${playlist.name} | Canto`,
      [
        ...common(playlist.name, description, url, image),
        ['property', 'og:type', 'music.playlist'],
        ['property', 'music:creator', canonical('profile', playlist.owner.id)],
        ...playlist.songs
          .slice(0, 20)
          .map((s): Meta => ['property', 'music:song', canonical('song', s.id)]),
        ...player('playlist', playlist.id, image),
      ],
      [canonicalLink(url), oembedLink(url, playlist.name)],
    );
  }

  /** The item's head, or null when a link to it shows nothing (404 for everyone). */
  async function itemHead(kind: ShareKind, id: string): Promise<string | null> {
    switch (kind) {
      case 'song': {
        const song = await shown(() => sharing.song(id, null));
        if (!song) return null;
        // The visitor's page (song-visitor.html) renders from this at once, without a fetch.
        const data = { kind: 'song', item: song, canonicalUrl: canonical('song', song.song.id) };
        return `${songHead(song)}<script type="application/json" id="${EMBED_DATA_ID}">${scriptJson(data)}</script>`;
      }
      case 'playlist': {
        const playlist = await shown(() => sharing.playlist(id, null));
        return playlist && playlistHead(playlist);
      }
      case 'profile': {
        const profile = await deps.social.profileCard(id);
        if (!profile) return null;
        const name = profileName(profile.displayName);
        const url = canonical('profile', id.toLowerCase());
        const image = absolute(profile.avatarUrl);
        const description =
          profile.bio || (profile.isArtist ? `${name}, artist on Canto` : `${name} on Canto`);
        return tags(
          `${name} | Canto`,
          [
            ...common(name, description, url, image),
            ['property', 'og:type', 'profile'],
            ['name', 'twitter:card', 'summary'],
          ],
          [canonicalLink(url)],
        );
      }
      case 'show': {
        const show = isUuid(id) ? await deps.podcasts.showById(id.toLowerCase()) : null;
        if (!show) return null;
        const url = canonical('show', show.id);
        const image = absolute(show.cover_art_url);
        const description = show.description || `A podcast on Canto`;
        return tags(
          `${show.title} | Canto`,
          [
            ...common(show.title, description, url, image),
            ['property', 'og:type', 'website'],
            ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
          ],
          [canonicalLink(url)],
        );
      }
      case 'episode': {
        const episode = await deps.podcasts.readyEpisode(id);
        const show = episode && (await deps.podcasts.showById(episode.podcastId));
        if (!episode || !show) return null;
        const url = canonical('episode', episode.id);
        const image = absolute(show.cover_art_url);
        const description = episode.description || `An episode of ${show.title} on Canto`;
        return tags(
          `${episode.title} · ${show.title} | Canto`,
          [
            ...common(episode.title, description, url, image),
            ['property', 'og:type', 'website'],
            ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
          ],
          [canonicalLink(url)],
        );
      }
    }
  }

  function readTemplate(): string {
    try {
      return fs.readFileSync(path.join(deps.webDir, 'embed.html'), 'utf8');
    } catch {
      return FALLBACK_EMBED;
    }
  }

  return {
    /**
     * The head of the web app's page at `pathname` when it names a shared item: its tags and
     * 200, or a generic title and 404 when a link to it shows nothing (the owner of a private
     * playlist gets 200, and no tags either). Null for every other path.
     */
    async pageHead(
      pathname: string,
      viewerId: string | null,
    ): Promise<{ status: number; head: string } | null> {
      const m = /^\/(song|playlist|profile|show|episode)\/([^/]+)\/?$/.exec(pathname);
      if (!m) return null;
      const kind = m[1] as ShareKind;
      const id = decoded(m[2]!);
      const head = id === null ? null : await itemHead(kind, id);
      if (head) return { status: 200, head };
      if (kind === 'playlist' && id !== null && viewerId) {
        const own = await shown(() => sharing.playlist(id, viewerId));
        if (own) return { status: 200, head: GENERIC_HEAD };
      }
      return { status: 404, head: NOT_SHOWN };
    },

    /**
     * The embed page of a song or public playlist: embed.html with the item's title, card
     * tags and data; a small 404 page for anything a link does not show.
     */
    async embedPage(kind: EmbedKind, rawId: string): Promise<{ status: number; html: string }> {
      const item =
        kind === 'song'
          ? await shown(() => sharing.song(rawId, null))
          : await shown(() => sharing.playlist(rawId, null));
      if (!item) return { status: 404, html: UNAVAILABLE_PAGE };
      const id = 'song' in item ? item.song.id : item.id;
      const canonicalUrl = canonical(kind, id);
      const data = { kind, item, canonicalUrl } as EmbedData;
      const head =
        ('song' in item ? songHead(item) : playlistHead(item)) +
        `<script type="application/json" id="${EMBED_DATA_ID}">${scriptJson(data)}</script>`;
      let html = readTemplate().replace(/<title>[\s\S]*?<\/title>/, '');
      html = html.replace(/<meta\s+name="description"[^>]*>/, '');
      const at = html.indexOf('</head>');
      return {
        status: 200,
        html: at < 0 ? `${head}${html}` : `${html.slice(0, at)}${head}${html.slice(at)}`,
      };
    },
  };
}

/** A path segment's id, or null when it does not decode. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The item, or null when the share answer is a 404. */
async function shown<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.notFound) return null;
    throw error;
  }
}
