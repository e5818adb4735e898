// A song's play button, as the list that shows the song wires it (to the player): the song
// entity draws the button and says what it does, but never reaches the player itself.

export interface SongPlayback {
  /** The song is the player's current item. */
  current: boolean;
  /** The song is current and playing. */
  playing: boolean;
  /** Plays the song (or toggles it while current); null when it has no audio (spec §4). */
  play: (() => void) | null;
}

/** The play button's name: what a click does, or why it does nothing. */
export function playLabel(title: string, artist: string, playback: SongPlayback): string {
  return playback.play
    ? `${playback.playing ? 'Pause' : 'Play'} ${title} by ${artist}`
    : `${title} cannot be played: no audio available`;
}
