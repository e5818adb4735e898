// How a song reads on screen (spec §2 song cards, §4 playback). zod-free on purpose: home's
// chunk stays small, so this repeats core's artistLabel rather than importing song.rules.
import type { SyntheticEvent } from 'react';
import type { SongDto } from '@/contracts/songs.contract.ts';

export const PLACEHOLDER_COVER = '/placeholder.svg';

/** Spec §2: artist name, else 'Artist' + first 8 chars of artist_id, else 'Unknown'. */
export function artistLabel(song: Pick<SongDto, 'artist' | 'artist_id'>): string {
  if (song.artist) return song.artist;
  if (song.artist_id) return `Artist ${song.artist_id.slice(0, 8)}`;
  return 'Unknown';
}

/** Spec §4: playback needs a resolved audio URL — file_url, else preview_url. */
export function audioUrlOf(song: Pick<SongDto, 'file_url' | 'preview_url'>): string | null {
  return song.file_url || song.preview_url || null;
}

const SOURCE_NAMES: Record<string, string> = { itunes: 'iTunes' };

/** The external catalogue a track comes from, as a name people know. */
export function sourceLabel(source: string): string {
  return SOURCE_NAMES[source.toLowerCase()] ?? source;
}

/** <img onError>: a missing or broken cover shows the placeholder (once, no loop). */
export function fallbackCover(e: SyntheticEvent<HTMLImageElement>) {
  const img = e.currentTarget;
  if (!img.src.endsWith(PLACEHOLDER_COVER)) img.src = PLACEHOLDER_COVER;
}
