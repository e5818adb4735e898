import type { EpisodeDto, EpisodeProgressDto } from '@/contracts/podcasts.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { artistLabel, audioUrlOf } from '@/web/components/song/song-display.ts';
import type { PlayerItem } from './use-player.ts';

/** A song as the player takes it, or null when it has no audio URL (spec §4). */
export function songToPlayable(song: SongDto): PlayerItem | null {
  const audioUrl = audioUrlOf(song);
  if (!audioUrl) return null;
  return {
    id: song.id,
    title: song.title,
    audioUrl,
    podcastTitle: artistLabel(song),
    coverArt: song.cover_art_url,
    media: {
      status: song.status,
      original: audioUrl,
      renditions: song.renditions,
      gainDb: song.loudness?.gain_db ?? null,
    },
    kind: 'song',
    durationSeconds: song.duration ?? undefined,
    waveformUrl: song.waveform_url,
    ...(song.artist_id && { artistId: song.artist_id }),
  };
}

/** Where an episode starts: where the listener left it, or 0 when new or played to the end. */
export function resumePosition(progress: EpisodeProgressDto | null): number {
  if (!progress || progress.completed) return 0;
  return Number.isFinite(progress.position) && progress.position > 0 ? progress.position : 0;
}

/** An episode as the player takes it: its show's title is the second line (spec §3). */
export function episodeToPlayable(episode: EpisodeDto): PlayerItem {
  return {
    id: episode.id,
    title: episode.title,
    audioUrl: episode.audio_url,
    podcastTitle: episode.podcast_title,
    coverArt: episode.cover_art_url,
    media: {
      status: episode.status,
      original: episode.audio_url,
      renditions: episode.renditions,
      gainDb: episode.loudness?.gain_db ?? null,
    },
    kind: 'episode',
    durationSeconds: episode.duration ?? undefined,
    waveformUrl: episode.waveform_url,
    podcastId: episode.podcast_id,
    resumeAt: resumePosition(episode.progress),
  };
}
