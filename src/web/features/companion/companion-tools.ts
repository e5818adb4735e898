// The companion's tools (spec §7), run in the browser with the listener's own authority: the
// real player and the same API the screens call. Each answer is the JSON the socket's
// function_call_output carries (companionToolOutputs); the player and the catalogue come in,
// so the dispatch is tested with fakes.
import {
  COMPANION_RECOMMENDATION_LIMIT,
  COMPANION_SEARCH_LIMIT,
  companionToolOutputs,
  controlPlaybackArgs,
  getArtistInfoArgs,
  getRecommendationsArgs,
  notImplementedOutput,
  searchMusicArgs,
  type CompanionSong,
} from '@/contracts/companion.contract.ts';
import type { ProfileDto } from '@/contracts/social.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import type { z } from 'zod';

/** Songs and artists as the screens read them. */
export interface CompanionCatalogue {
  song(id: string): Promise<SongDto>;
  /** The search screen's songs for `query` (title, artist or genre contains it). */
  search(query: string, limit: number): Promise<SongDto[]>;
  recommendations(options: { genre?: string; limit: number }): Promise<SongDto[]>;
  profile(userId: string): Promise<ProfileDto>;
  artistSongs(userId: string, limit: number): Promise<SongDto[]>;
}

/** The player as a song card drives it. */
export interface CompanionPlayer {
  nowPlaying(): { current: { id: string } | null; playing: boolean };
  /** Loads the song and starts it; false when it has no audio to play. */
  play(song: SongDto): boolean;
  toggle(): void;
  next(): void;
  previous(): void;
}

export interface CompanionToolDeps {
  player: CompanionPlayer;
  catalogue: CompanionCatalogue;
  /** A failure as the listener would read it (the API client's errorMessage). */
  describeError(error: unknown): string;
}

type Outputs = {
  [K in keyof typeof companionToolOutputs]: z.infer<(typeof companionToolOutputs)[K]>;
};

/** What the search tool asks the API for: enough to keep 5 after leaving out genre matches. */
const SEARCH_FETCH = 20;

const includes = (value: string | null, query: string) =>
  value !== null && value.toLowerCase().includes(query.toLowerCase());

/** Only the own catalogue's songs: an external track cannot be fetched again by its id. */
function toCompanionSongs(songs: SongDto[], limit: number): CompanionSong[] {
  return songs
    .filter((s): s is SongDto & { artist_id: string } => s.artist_id !== null && !s.source)
    .slice(0, limit)
    .map((s) => ({
      id: s.id,
      title: s.title,
      artist_id: s.artist_id,
      ...(s.artist && { artist_name: s.artist }),
      ...(s.genre && { genre: s.genre }),
    }));
}

const nowPlayingOf = (song: SongDto) => ({ title: song.title, artist_name: song.artist ?? '' });

async function controlPlayback(
  args: z.infer<typeof controlPlaybackArgs>,
  { player, catalogue, describeError }: CompanionToolDeps,
): Promise<Outputs['control_playback']> {
  const { current, playing } = player.nowPlaying();
  switch (args.action) {
    case 'play': {
      if (!args.song_id) {
        if (!current) return { ok: false, error: 'Nothing to resume: name a song to play' };
        if (!playing) player.toggle();
        return { ok: true };
      }
      let song: SongDto;
      try {
        song = await catalogue.song(args.song_id);
      } catch (error) {
        return { ok: false, error: describeError(error) };
      }
      // Loading the current song again would toggle it (spec §4): a paused one is resumed and
      // a playing one left playing.
      const again = player.nowPlaying();
      if (again.current?.id === song.id) {
        if (!again.playing) player.toggle();
      } else if (!player.play(song)) {
        return { ok: false, error: 'This song has no audio to play' };
      }
      return { ok: true, now_playing: nowPlayingOf(song) };
    }
    case 'pause':
      if (playing) player.toggle();
      return { ok: true };
    case 'next':
      player.next();
      return { ok: true };
    case 'previous':
      player.previous();
      return { ok: true };
  }
}

async function searchMusic(
  { query }: z.infer<typeof searchMusicArgs>,
  { catalogue }: CompanionToolDeps,
): Promise<Outputs['search_music']> {
  const q = query.trim();
  if (!q) return { songs: [] };
  const found = await catalogue.search(q, SEARCH_FETCH);
  // Spec §7: songs whose title (or artist) contains the query; a genre match alone is not one.
  const matching = found.filter((s) => includes(s.title, q) || includes(s.artist, q));
  return { songs: toCompanionSongs(matching, COMPANION_SEARCH_LIMIT) };
}

async function getRecommendations(
  { genre }: z.infer<typeof getRecommendationsArgs>,
  { catalogue }: CompanionToolDeps,
): Promise<Outputs['get_recommendations']> {
  const wanted = genre?.trim() || undefined;
  const songs = await catalogue.recommendations({
    ...(wanted && { genre: wanted }),
    limit: COMPANION_RECOMMENDATION_LIMIT,
  });
  return { songs: toCompanionSongs(songs, COMPANION_RECOMMENDATION_LIMIT) };
}

async function getArtistInfo(
  { name }: z.infer<typeof getArtistInfoArgs>,
  { catalogue }: CompanionToolDeps,
): Promise<Outputs['get_artist_info']> {
  const q = name.trim();
  if (!q) return { artist: null, songs: [] };
  const found = (await catalogue.search(q, SEARCH_FETCH)).filter(
    (s) => s.artist_id !== null && includes(s.artist, q),
  );
  // The artist named exactly, else the first whose name contains it.
  const match = found.find((s) => s.artist?.toLowerCase() === q.toLowerCase()) ?? found[0];
  if (!match?.artist_id) return { artist: null, songs: [] };
  const [profile, songs] = await Promise.all([
    catalogue.profile(match.artist_id),
    catalogue.artistSongs(match.artist_id, COMPANION_SEARCH_LIMIT),
  ]);
  return {
    artist: {
      id: profile.user_id,
      name: profile.display_name ?? match.artist ?? q,
      bio: profile.bio,
      followers: profile.follower_count,
    },
    songs: toCompanionSongs(songs, COMPANION_SEARCH_LIMIT),
  };
}

const tools = {
  control_playback: { args: controlPlaybackArgs, run: controlPlayback },
  search_music: { args: searchMusicArgs, run: searchMusic },
  get_recommendations: { args: getRecommendationsArgs, run: getRecommendations },
  get_artist_info: { args: getArtistInfoArgs, run: getArtistInfo },
} as const;

const isTool = (name: string): name is keyof typeof tools => Object.hasOwn(tools, name);

/**
 * Runs the tool the model called and gives its output as the JSON string the socket sends.
 * Never throws: bad arguments and failures are answers the model can read and say.
 */
export async function runCompanionTool(
  name: string,
  argumentsJson: string,
  deps: CompanionToolDeps,
): Promise<string> {
  if (!isTool(name)) return JSON.stringify(notImplementedOutput(name));
  const tool = tools[name];
  let raw: unknown;
  try {
    raw = argumentsJson.trim() ? JSON.parse(argumentsJson) : {};
  } catch {
    return JSON.stringify({ error: `Invalid arguments for ${name}: not JSON` });
  }
  const args = tool.args.safeParse(raw);
  if (!args.success) {
    return JSON.stringify({
      error: `Invalid arguments for ${name}: ${args.error.issues[0]?.message}`,
    });
  }
  try {
    // Each entry's run takes its own args; the union of entries loses that pairing.
    const output = await (tool.run as (a: unknown, d: CompanionToolDeps) => Promise<unknown>)(
      args.data,
      deps,
    );
    return JSON.stringify(output);
  } catch (error) {
    return JSON.stringify({ error: deps.describeError(error) });
  }
}
