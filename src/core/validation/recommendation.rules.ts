import { textLine } from './text.rules.ts';
import { songLimits } from './song.rules.ts';

// Recommendations and the AI mix (docs/decisions/0032): sizes and messages shared by the web
// and the server; pure.

export const recommendationLimits = {
  /** Songs GET /api/recommendations answers when no limit is asked. */
  defaultLimit: 10,
  maxLimit: 50,
  /** Songs in a generated AI mix. */
  mixSize: 20,
  /** The listener's last plays that are never recommended ("just played"). */
  recentPlays: 50,
  /** …and any play within this many hours (among the last `seedPlays`). */
  recentHours: 3,
  /** The listener's last plays that seed the co-listening, newest weighing most. */
  seedPlays: 200,
  /** Co-listened songs kept per song by the neighbours job. */
  neighboursPerSong: 50,
  /** A listener's most played songs that count towards the co-listening tables. */
  songsPerListener: 20,
  /** At most this many songs of one artist in a personal list, while others are left. */
  perArtist: 3,
} as const;

export const recommendationMessages = {
  loadFailed: 'Failed to load recommendations',
  mixFailed: 'Failed to generate playlist',
  mixCreated: 'Your AI playlist is ready',
  noSongs: 'There are no songs to recommend yet',
} as const;

/** `?genre=`: a genre as songs carry it (at most 100 characters), compared ignoring case. */
export const recommendationGenreRule = textLine().max(songLimits.genreMax);

/** The AI mix's name: 'Your AI Mix · Nov 29', or the dominant genre's ('Jazz Mix · Nov 29'). */
export function aiMixTitle(genre: string | null, day: Date): string {
  const date = day.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const name = genre?.trim() ? `${titleCase(genre.trim()).slice(0, 60)} Mix` : 'Your AI Mix';
  return `${name} · ${date}`;
}

const titleCase = (s: string) => s.replace(/(^|\s)\p{Ll}/gu, (c) => c.toUpperCase());
