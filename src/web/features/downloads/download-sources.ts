// What a song or an episode downloads: a song's Opus rendition (the smallest file that still
// sounds like the stream), an episode's Opus rendition or else its audio. Pure.
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import type { SongDto, SongRenditionDto } from '@/contracts/songs.contract.ts';
import type { DownloadSource } from '@/web/lib/offline/download-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Opus rendition to store: the best at or under 160 kbps, else the lightest above. */
export function opusRendition(renditions: readonly SongRenditionDto[]): SongRenditionDto | null {
  const opus = renditions.filter((r) => r.codec === 'opus');
  const within = opus.filter((r) => r.bitrate_kbps <= 160);
  if (within.length > 0) return within.reduce((a, b) => (b.bitrate_kbps > a.bitrate_kbps ? b : a));
  return opus.reduce<SongRenditionDto | null>(
    (a, b) => (!a || b.bitrate_kbps < a.bitrate_kbps ? b : a),
    null,
  );
}

/** A Canto song ready to download, or null (an external preview, or still processing). */
export function songSource(song: SongDto): DownloadSource | null {
  if (!UUID.test(song.id) || song.status !== 'ready') return null;
  const rendition = opusRendition(song.renditions);
  if (!rendition) return null;
  return {
    id: song.id,
    kind: 'song',
    title: song.title,
    artist: song.artist ?? (song.artist_id ? `Artist ${song.artist_id.slice(0, 8)}` : 'Unknown'),
    audioUrl: rendition.url,
    coverUrl: song.cover_art_url,
    durationSeconds: song.duration,
    ...(song.artist_id && { artistId: song.artist_id }),
  };
}

export function episodeSource(episode: EpisodeDto): DownloadSource | null {
  if (episode.status === 'processing') return null;
  const rendition = episode.status === 'ready' ? opusRendition(episode.renditions) : null;
  return {
    id: episode.id,
    kind: 'episode',
    title: episode.title,
    artist: episode.podcast_title,
    audioUrl: rendition?.url ?? episode.audio_url,
    coverUrl: episode.cover_art_url,
    durationSeconds: episode.duration,
    podcastId: episode.podcast_id,
  };
}
