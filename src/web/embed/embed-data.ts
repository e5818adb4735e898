// What the embed page shows: the item the server wrote into the page (#canto-embed-data), or,
// without it (a cached or hand-served page), the share API's answer for the id in the path.
// Type imports only: the embed's script must not pull the contracts' zod schemas in.
import type { SharedPlaylist, SharedSong } from '@/contracts/share.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';

export type EmbedData =
  | { kind: 'song'; item: SharedSong; canonicalUrl: string }
  | { kind: 'playlist'; item: SharedPlaylist; canonicalUrl: string };

export interface EmbedTarget {
  kind: 'song' | 'playlist';
  id: string;
}

/** /embed/song/{id} or /embed/playlist/{id}; anything else names nothing. */
export function embedTarget(pathname: string): EmbedTarget | null {
  const match = /^\/embed\/(song|playlist)\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  return { kind: match[1] as EmbedTarget['kind'], id: decodeURIComponent(match[2]!) };
}

export function shareApiUrl({ kind, id }: EmbedTarget): string {
  // eslint-disable-next-line no-restricted-syntax -- the route table's entries carry zod schemas: too heavy for the embed (shareApi.song/.playlist paths)
  return `/api/share/${kind === 'song' ? 'songs' : 'playlists'}/${encodeURIComponent(id)}`;
}

export function canonicalUrl({ kind, id }: EmbedTarget, origin: string): string {
  return `${origin}/${kind}/${encodeURIComponent(id)}`;
}

/** The data the server wrote into the page, or null when there is none or it is unreadable. */
export function readInlineData(text: string | null | undefined): EmbedData | null {
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<EmbedData>;
    if ((data.kind === 'song' || data.kind === 'playlist') && data.item && data.canonicalUrl)
      return data as EmbedData;
  } catch {
    // A broken script block: the page asks the API instead.
  }
  return null;
}

/** The songs the embed plays, in order. */
export function tracksOf(data: EmbedData): SongDto[] {
  return data.kind === 'song' ? [data.item.song] : data.item.songs;
}

/** The player's rule: the whole file when the caller may hear it, else the preview. */
export function audioUrl(song: Pick<SongDto, 'file_url' | 'preview_url'>): string | null {
  return song.file_url || song.preview_url || null;
}

export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
