import { z } from 'zod';
import { songDto } from './songs.contract.ts';

/** The kinds of item a share link names, and the canonical web path of each. */
export const SHARE_KINDS = ['song', 'playlist', 'profile', 'show', 'episode'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/** The canonical path of an item's page (what Share copies, after the public origin). */
export function sharePath(kind: ShareKind, id: string): string {
  return `/${kind}/${encodeURIComponent(id)}`;
}

/** The embed page of an item that has one (songs and public playlists). */
export const EMBED_KINDS = ['song', 'playlist'] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];
export function embedPath(kind: EmbedKind, id: string): string {
  return `/embed/${kind}/${encodeURIComponent(id)}`;
}

/** How long a visitor's preview of a song lasts. */
export const PREVIEW_SECONDS = 30;

/** Any text: an id that is not a uuid answers 404 like one of nothing, never 400. */
export const shareIdParams = z.object({ id: z.string().min(1).max(200) });

/**
 * A song as its share link shows it. `full`: the caller is a signed-in listener and `song` is
 * the whole DTO; else `song.file_url` is null, there are no renditions and `song.preview_url`
 * is the 30 s preview (the player's rule: file_url, else preview_url).
 */
export const sharedSong = z.object({ full: z.boolean(), song: songDto });
export type SharedSong = z.infer<typeof sharedSong>;

/** A public playlist as its share and embed links show it (a private one is a 404). */
export const sharedPlaylist = z.object({
  full: z.boolean(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  owner: z.object({ id: z.uuid(), name: z.string() }),
  cover_art_url: z.string().nullable(),
  songs: z.array(songDto),
});
export type SharedPlaylist = z.infer<typeof sharedPlaylist>;

/** oEmbed 1.0 (oembed.com §2.2): JSON only; `format=xml` answers 501. */
export const oembedQuery = z.object({
  url: z.string().min(1).max(2048),
  format: z.string().max(20).optional(),
  maxwidth: z.coerce.number().int().positive().max(10_000).optional(),
  maxheight: z.coerce.number().int().positive().max(10_000).optional(),
});
export const oembedResponse = z.object({
  type: z.literal('rich'),
  version: z.literal('1.0'),
  title: z.string(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  provider_name: z.literal('Canto'),
  provider_url: z.string(),
  cache_age: z.number().int().optional(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type OembedResponse = z.infer<typeof oembedResponse>;
