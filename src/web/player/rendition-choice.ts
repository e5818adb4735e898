// Which file the player streams: a rendition the browser says it can play, chosen
// by the listener's quality, else the original. Pure: canPlayType's answers come in.
import type { SongMediaStatus, SongRenditionDto } from '@/contracts/songs.contract.ts';
import { QUALITY_TARGET_KBPS, type Quality } from './playback-quality.ts';

/** HTMLMediaElement.canPlayType's answer. */
export type CanPlay = '' | 'maybe' | 'probably';
export type CanPlayType = (mime: string) => CanPlay;

/** What the player needs of a song's media to choose a source and its gain. */
export interface PlayerMedia {
  status: SongMediaStatus;
  /** The original upload (file_url), or an external track's preview. */
  original: string;
  /** Ready renditions, bitrate ascending (the contract's order). */
  renditions: readonly SongRenditionDto[];
  /** loudness.gain_db, or null when the song has not been measured. */
  gainDb: number | null;
}

export interface AudioSource {
  url: string;
  /** The rendition streamed, or null for the original. */
  rendition: SongRenditionDto | null;
}

// Uploads are stored under their detected container's extension (mp3, wav, flac, ogg, m4a).
const ORIGINAL_MIME: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
};

/** The original's MIME type from its URL's extension, or null when it cannot be told. */
export function originalMime(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, 'http://canto.invalid').pathname;
  } catch {
    return null;
  }
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return ORIGINAL_MIME[path.slice(dot + 1).toLowerCase()] ?? null;
}

interface Candidate {
  rendition: SongRenditionDto;
  confidence: CanPlay;
}

/** `a` beats `b`: nearer the wanted end of the bitrate scale, then a surer canPlayType. */
function beats(a: Candidate, b: Candidate, highest: boolean): boolean {
  const ka = a.rendition.bitrate_kbps;
  const kb = b.rendition.bitrate_kbps;
  if (ka !== kb) return highest ? ka > kb : ka < kb;
  return a.confidence === 'probably' && b.confidence !== 'probably';
}

function pick(pool: readonly Candidate[], highest: boolean): Candidate | null {
  let best: Candidate | null = null;
  for (const c of pool) if (!best || beats(c, best, highest)) best = c;
  return best;
}

/**
 * The source for a quality: Data saver and Normal take the best playable rendition at or
 * under their bitrate (else the lightest one above it); High takes the original when the
 * browser can play it, else the best rendition. While the song is processing (or failed), or
 * when no rendition is playable here, the original is the fallback.
 */
export function chooseAudioSource(
  media: PlayerMedia,
  quality: Quality,
  canPlayType: CanPlayType,
): AudioSource {
  const original: AudioSource = { url: media.original, rendition: null };
  if (media.status !== 'ready') return original;

  const playable: Candidate[] = [];
  for (const rendition of media.renditions) {
    const confidence = canPlayType(rendition.mime);
    if (confidence) playable.push({ rendition, confidence });
  }

  const target = QUALITY_TARGET_KBPS[quality];
  let chosen: Candidate | null;
  if (target === null) {
    const mime = originalMime(media.original);
    // An unknown type is left for the element to try: it is what the artist uploaded.
    if (!mime || canPlayType(mime)) return original;
    chosen = pick(playable, true);
  } else {
    const within = playable.filter((c) => c.rendition.bitrate_kbps <= target);
    chosen = within.length > 0 ? pick(within, true) : pick(playable, false);
  }
  return chosen ? { url: chosen.rendition.url, rendition: chosen.rendition } : original;
}
