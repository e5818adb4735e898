import type { SongDto } from '@/contracts/songs.contract.ts';
import { artistLabel, audioUrlOf } from '@/web/features/catalogue/song-display.ts';
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
  };
}
