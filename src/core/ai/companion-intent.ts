/*
 * What the local AI companion understands (docs/decisions/0033): a typed or spoken sentence
 * becomes an intent, and an intent a short plan of tool calls the listener's browser runs
 * (search, recommendations, artist info, playback), each step chosen from the previous
 * tool's output, ending in a sentence said back. Pure: the engine does the talking.
 */

export type PlaybackAction = 'play' | 'pause' | 'next' | 'previous';

export type Intent =
  /** Recommendations (of a genre, when said), then play the first. */
  | { kind: 'play_recommended'; genre?: string }
  /** Search by title, then play the first match (by `artist` when said). */
  | { kind: 'play_search'; query: string; artist?: string }
  | { kind: 'playback'; action: PlaybackAction }
  | { kind: 'artist_info'; name: string }
  | { kind: 'recommend'; genre?: string }
  | { kind: 'search'; query: string }
  | { kind: 'help' };

// Words and adjectives for genres, to the genre values songs carry.
const GENRES: [RegExp, string][] = [
  [/^(jazz|jazzy)$/, 'jazz'],
  [/^(rock|rocky|rocking)$/, 'rock'],
  [/^(pop|poppy)$/, 'pop'],
  [/^(blues|bluesy)$/, 'blues'],
  [/^(funk|funky)$/, 'funk'],
  [/^(chill|chilled|chilly|mellow|relaxing|calm)$/, 'chill'],
  [/^(hip hop|hiphop|hip-hop|rap)$/, 'hip hop'],
  [/^(electronic|electro|edm|techno|dance|house)$/, 'electronic'],
  [/^(classical|orchestral)$/, 'classical'],
  [/^(r&b|r and b|rnb|soul|soulful)$/, 'r&b'],
  [/^(country)$/, 'country'],
  [/^(metal|heavy metal)$/, 'metal'],
  [/^(folk|folky)$/, 'folk'],
  [/^(reggae)$/, 'reggae'],
];

/** The genre a word or two names ('jazzy' → 'jazz'), or undefined. */
export function genreOf(words: string): string | undefined {
  const w = words.trim().replace(/\s+(music|songs?|tunes?|tracks?|stuff)$/, '');
  for (const [pattern, genre] of GENRES) if (pattern.test(w)) return genre;
  return undefined;
}

/** Lower case, no punctuation but & and ', no polite wrapping. */
function normalize(text: string): string {
  let t = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&'\s-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Wishes to hear something are a 'play'; the other wrappers are dropped.
  const hear = /^(i want to|i'd like to|i would like to|i wanna|let's|lets) (hear|listen to) /;
  const wrappers = [
    /^(hey|hi|ok|okay) (canto|companion)\b ?/,
    /^(please|kindly) /,
    /^(can|could|would|will) you (please )?/,
    /^(i want|i would like|i'd like) (you )?(to )?/,
    / please$/,
    / for me$/,
    / now$/,
  ];
  for (let again = true; again;) {
    again = false;
    for (const w of [hear, ...wrappers]) {
      const next = (w === hear ? t.replace(w, 'play ') : t.replace(w, '')).trim();
      if (next !== t) {
        t = next;
        again = true;
      }
    }
  }
  return t;
}

const PLAYBACK: [RegExp, PlaybackAction][] = [
  [
    /^(pause|stop|hold|halt)( (it|this|that|the (music|song|track|playback)|playing|the playback))?$/,
    'pause',
  ],
  [/^(be quiet|quiet|shut up|silence)$/, 'pause'],
  [
    /^(resume|continue|unpause|play|start|keep playing|carry on)( (it|the (music|song|track|playback)|playing|playback))?$/,
    'play',
  ],
  [/^(next|skip)( (it|this|that|song|track|one|this (song|track|one)))?$/, 'next'],
  [/^(play )?(the )?next (song|track|one)$/, 'next'],
  [/^(previous|back|go back)( (a )?(song|track|one))?$/, 'previous'],
  [/^(play )?(the )?(previous|last) (song|track|one)( again)?$/, 'previous'],
];

/** What a sentence asks for; `help` when nothing is understood. */
export function parseIntent(text: string): Intent {
  const t = normalize(text);
  if (!t) return { kind: 'help' };
  for (const [pattern, action] of PLAYBACK)
    if (pattern.test(t)) return { kind: 'playback', action };

  const artist =
    /^(who is|who's|who are|tell me about|what about|info on|information about|what do you know about)( the (artist|band|singer))? (.+)$/.exec(
      t,
    );
  if (artist) return { kind: 'artist_info', name: artist[4]!.trim() };

  const recommend =
    /^(recommend|suggest)( me| us)?( (something|anything|some|a song|a track|songs|music|some music|some songs))?( (.+?))?$/.exec(
      t,
    );
  if (recommend) {
    const rest = (recommend[6] ?? '').replace(/^(that is|that's|which is|in|from|of) /, '');
    return { kind: 'recommend', genre: rest ? genreOf(rest) : undefined };
  }
  if (/^what (should|can) i (listen to|play)$/.test(t)) return { kind: 'recommend' };

  const play = /^(play|put on|start playing|queue up)( me)? (.+)$/.exec(t);
  if (play) {
    const what = play[3]!.trim();
    const something =
      /^(something|anything|some music|a song|some songs|a track|some)( (.+))?$/.exec(what);
    if (something) {
      const rest = (something[3] ?? '').replace(
        /^(that's|that is|which is|in|from|of|a bit|bit) /,
        '',
      );
      const genre = rest ? genreOf(rest) : undefined;
      if (!rest || genre) return { kind: 'play_recommended', genre };
    }
    const genre = genreOf(what.replace(/^(some|a bit of) /, ''));
    if (genre) return { kind: 'play_recommended', genre };
    const by = /^(?:the song |the track )?(.+?) by (.+)$/.exec(what);
    if (by) return { kind: 'play_search', query: by[1]!, artist: by[2]! };
    return { kind: 'play_search', query: what.replace(/^(the song|the track|song|track) /, '') };
  }

  const search =
    /^(search for|search|find|look for|look up)( the song| songs called| a song called)? (.+)$/.exec(
      t,
    );
  if (search) return { kind: 'search', query: search[3]!.trim() };

  return { kind: 'help' };
}

// ── plans ───────────────────────────────────────────────────────────────────────────────

export type CompanionSongInfo = {
  id: string;
  title: string;
  artist_id: string;
  artist_name?: string;
  genre?: string;
};

/** A tool's output as the browser answered it, already checked against its shape. */
export type ToolOutput =
  | {
      name: 'control_playback';
      ok: boolean;
      now_playing?: { title: string; artist_name: string };
      error?: string;
    }
  | { name: 'search_music'; songs: CompanionSongInfo[] }
  | { name: 'get_recommendations'; songs: CompanionSongInfo[] }
  | {
      name: 'get_artist_info';
      artist: { id: string; name: string; bio?: string | null; followers: number } | null;
      songs: CompanionSongInfo[];
    }
  /** An output that was not the tool's shape, or the browser's error. */
  | { name: string; failed: string };

export type ToolCallRequest =
  | { name: 'control_playback'; arguments: { action: PlaybackAction; song_id?: string } }
  | { name: 'search_music'; arguments: { query: string } }
  | { name: 'get_recommendations'; arguments: { genre?: string } }
  | { name: 'get_artist_info'; arguments: { name: string } };

/** The next thing the companion does: ask the browser for a tool, or answer and finish. */
export type Step = { kind: 'call'; call: ToolCallRequest } | { kind: 'say'; text: string };

/** Where a plan is: its intent, and the song it chose to play once it has. */
export type Plan = { intent: Intent; chosen?: CompanionSongInfo };

export const HELP_TEXT =
  "I can play, pause and skip songs, play something by genre (say 'play something jazzy'), " +
  "find a song to play ('play' and its title), recommend music, and tell you about an artist " +
  "('who is' and a name). What would you like?";

/** The first step of an intent. */
export function firstStep(intent: Intent): Step {
  switch (intent.kind) {
    case 'play_recommended':
    case 'recommend':
      return {
        kind: 'call',
        call: {
          name: 'get_recommendations',
          arguments: intent.genre ? { genre: intent.genre } : {},
        },
      };
    case 'play_search':
    case 'search':
      return { kind: 'call', call: { name: 'search_music', arguments: { query: intent.query } } };
    case 'playback':
      return {
        kind: 'call',
        call: { name: 'control_playback', arguments: { action: intent.action } },
      };
    case 'artist_info':
      return { kind: 'call', call: { name: 'get_artist_info', arguments: { name: intent.name } } };
    case 'help':
      return { kind: 'say', text: HELP_TEXT };
  }
}

const songName = (s: CompanionSongInfo) =>
  s.artist_name ? `${s.title} by ${s.artist_name}` : s.title;

/** 'a', 'a and b', 'a, b and c'. */
export function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const playbackDone: Record<PlaybackAction, string> = {
  play: 'Resuming playback.',
  pause: 'Paused.',
  next: 'Skipping to the next song.',
  previous: 'Going back to the previous song.',
};
const playbackVerb: Record<PlaybackAction, string> = {
  play: 'play',
  pause: 'pause',
  next: 'skip',
  previous: 'go back',
};

/** The step after a tool's output, given the plan so far (the plan may choose a song). */
export function nextStep(plan: Plan, output: ToolOutput): Step {
  const { intent } = plan;
  if ('failed' in output) return { kind: 'say', text: `Sorry, that didn't work: ${output.failed}` };
  if (output.name === 'control_playback') {
    const action = intent.kind === 'playback' ? intent.action : 'play';
    if (!output.ok) {
      const why = output.error ? `: ${output.error}` : '.';
      return { kind: 'say', text: `I couldn't ${playbackVerb[action]}${why}` };
    }
    const playing = output.now_playing
      ? `${output.now_playing.title} by ${output.now_playing.artist_name}`
      : plan.chosen && songName(plan.chosen);
    if (plan.chosen || (action === 'play' && playing))
      return { kind: 'say', text: `Playing ${playing}.` };
    return { kind: 'say', text: playbackDone[action] };
  }
  if (output.name === 'get_recommendations' || output.name === 'search_music') {
    let songs = output.songs;
    if (intent.kind === 'play_search' && intent.artist) {
      const wanted = intent.artist.toLowerCase();
      const byArtist = songs.filter((s) => s.artist_name?.toLowerCase().includes(wanted));
      if (byArtist.length) songs = byArtist;
    }
    const first = songs[0];
    if (intent.kind === 'play_recommended' || intent.kind === 'play_search') {
      if (!first) {
        const what =
          intent.kind === 'play_search'
            ? `anything called "${intent.query}"`
            : intent.genre
              ? `any ${intent.genre} songs`
              : 'any songs to recommend';
        return { kind: 'say', text: `I couldn't find ${what}.` };
      }
      plan.chosen = first;
      return {
        kind: 'call',
        call: { name: 'control_playback', arguments: { action: 'play', song_id: first.id } },
      };
    }
    if (!first) {
      return {
        kind: 'say',
        text:
          intent.kind === 'search'
            ? `I couldn't find anything called "${intent.query}".`
            : `I couldn't find any ${intent.kind === 'recommend' && intent.genre ? `${intent.genre} ` : ''}songs to recommend.`,
      };
    }
    const named = listOf(songs.slice(0, 3).map(songName));
    return {
      kind: 'say',
      text:
        intent.kind === 'search'
          ? `I found ${named}. Say 'play' and a title to hear one.`
          : `You might like ${named}.`,
    };
  }
  if (output.name === 'get_artist_info') {
    const name = intent.kind === 'artist_info' ? intent.name : 'that artist';
    if (!output.artist) return { kind: 'say', text: `I couldn't find an artist called ${name}.` };
    const { followers } = output.artist;
    let text = `${output.artist.name} has ${followers} ${followers === 1 ? 'follower' : 'followers'}.`;
    const bio = output.artist.bio?.trim();
    if (bio) text += ` ${/^[^.!?]*[.!?]?/.exec(bio)![0].trim()}`;
    const titles = output.songs.slice(0, 3).map((s) => s.title);
    text += titles.length ? ` Their songs include ${listOf(titles)}.` : ' They have no songs yet.';
    return { kind: 'say', text };
  }
  return { kind: 'say', text: HELP_TEXT };
}
