import type { SongLoudnessDto, SongRenditionDto } from '../../contracts/songs.contract.ts';
import { playbackGainDb } from './loudness.ts';

/*
 * The media pipeline's outputs as the API sends them (docs/decisions/0014), the same for a
 * song and a podcast episode: renditions with signed URLs by bitrate, and the loudness with
 * the gain the player applies.
 */

/** A stored URL as clients get it (the media module's publicUrl: signed for audio). */
export type MediaUrls = (stored: string | null) => string | null;

/** What the API needs of a rendition row (song_renditions, podcast_episode_renditions). */
export type RenditionFields = {
  format: string;
  codec: string;
  mime: string;
  bitrateKbps: number;
  fileUrl: string;
  bytes: number;
  durationMs: number;
};

/** Renditions lightest first (ties by format), each URL signed. */
export function renditionDtos(rows: RenditionFields[], publicUrl: MediaUrls): SongRenditionDto[] {
  return [...rows]
    .sort((a, b) => a.bitrateKbps - b.bitrateKbps || a.format.localeCompare(b.format))
    .map((r) => ({
      url: publicUrl(r.fileUrl)!,
      mime: r.mime,
      codec: r.codec as 'opus' | 'aac',
      bitrate_kbps: r.bitrateKbps,
      bytes: r.bytes,
      duration: r.durationMs / 1000,
    }));
}

/** The measured loudness and the playback gain (to -14 LUFS, never past -1 dBTP); null if unmeasured. */
export function loudnessDto(
  integratedLufs: number | null,
  truePeakDbtp: number | null,
): SongLoudnessDto | null {
  if (integratedLufs === null || truePeakDbtp === null) return null;
  return {
    integrated_lufs: integratedLufs,
    true_peak_dbtp: truePeakDbtp,
    gain_db: playbackGainDb({ integratedLufs, truePeakDbtp }),
  };
}
