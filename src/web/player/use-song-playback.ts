// A song card's or row's play button wired to the player: whether the song is the current
// item (and playing), and a click that loads it, or toggles it while current (spec §4).
import type { SongDto } from '@/contracts/songs.contract.ts';
import type { SongPlayback } from '@/web/components/song/song-playback.ts';
import { songToPlayable } from './playable.ts';
import { useNowPlaying, usePlayerControls, type PlayerItem } from './use-player.ts';

/** The button's state and action, and the song as the player takes it (null: no audio). */
export function useSongPlayback(song: SongDto): SongPlayback & { item: PlayerItem | null } {
  const { current, playing } = useNowPlaying();
  const { load } = usePlayerControls();
  const item = songToPlayable(song);
  const isCurrent = current?.id === song.id;
  return {
    current: isCurrent,
    playing: isCurrent && playing,
    play: item && (() => load(item)),
    item,
  };
}
