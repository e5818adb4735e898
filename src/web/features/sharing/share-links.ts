// What the Share dialog offers: the item's canonical link and, for songs and public playlists,
// the <iframe> snippet of its embed page, both absolute on the app's own origin.
import {
  embedPath,
  sharePath,
  type EmbedKind,
  type ShareKind,
} from '@/contracts/share.contract.ts';

/** The embed's height: one row for a song, room for the track list for a playlist. */
export const EMBED_HEIGHT: Record<EmbedKind, number> = { song: 152, playlist: 352 };

export const isEmbeddable = (kind: ShareKind): kind is EmbedKind =>
  kind === 'song' || kind === 'playlist';

/** `hint`: query parameters that help the page open (an episode's show), after the path. */
export function shareUrl(
  kind: ShareKind,
  id: string,
  origin: string,
  hint?: Record<string, string>,
): string {
  const query = hint ? new URLSearchParams(hint).toString() : '';
  return `${origin}${sharePath(kind, id)}${query && `?${query}`}`;
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The snippet a blog pastes; the title names the frame for screen readers. */
export function embedSnippet(kind: EmbedKind, id: string, title: string, origin: string): string {
  const attrs = [
    `title="${escapeAttr(`${title} on Canto`)}"`,
    `src="${escapeAttr(`${origin}${embedPath(kind, id)}`)}"`,
    'width="100%"',
    `height="${EMBED_HEIGHT[kind]}"`,
    'style="border:0;border-radius:12px"',
    'loading="lazy"',
    'allow="autoplay; encrypted-media"',
  ];
  return `<iframe ${attrs.join(' ')}></iframe>`;
}
