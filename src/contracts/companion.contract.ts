import { z } from 'zod';

// The AI companion socket's events (spec §7), shaped as the OpenAI Realtime protocol names
// them so one client speaks to the local engine and to a relayed OpenAI-compatible server.

/**
 * The socket: GET /api/ai/companion upgraded to a WebSocket, authenticated by the session
 * cookie like the live notifications; signed-out 4401, not a premium subscriber 4403.
 */
export const COMPANION_PATH = '/api/ai/companion';

/** Audio both ways: 24 kHz mono 16-bit little-endian PCM, base64 (spec §9). */
export const COMPANION_SAMPLE_RATE = 24_000;
export const COMPANION_FRAME_SAMPLES = 4096;
export const COMPANION_TRANSCRIPT_LINES = 5;
export const COMPANION_SEARCH_LIMIT = 5;
export const COMPANION_RECOMMENDATION_LIMIT = 10;
/** Largest frame the server reads; a bigger one closes the socket with 1009. */
export const COMPANION_MAX_FRAME_BYTES = 64 * 1024;

/** Close codes the server uses besides 1000, 1008 (policy) and 1009 (too big). */
export const companionCloseCodes = {
  /** The access token the socket was opened with expired: reconnect (refreshed cookie). */
  sessionExpired: 4001,
  /** The user opened a third companion socket: the oldest closes. */
  openedElsewhere: 4008,
  signedOut: 4401,
  notSubscriber: 4403,
  upstreamFailed: 4502,
} as const;

// ── tools ────────────────────────────────────────────────────────────────────────────────

export const controlPlaybackArgs = z.object({
  action: z.enum(['play', 'pause', 'next', 'previous']),
  /** With play: the song to start (from search_music or get_recommendations); else resume. */
  song_id: z.string().optional(),
});
export const searchMusicArgs = z.object({ query: z.string() });
export const getRecommendationsArgs = z.object({
  /** A genre to keep to ('jazz'); absent: the listener's own recommendations. */
  genre: z.string().optional(),
});
export const getArtistInfoArgs = z.object({ name: z.string() });

export const companionToolNames = [
  'control_playback',
  'search_music',
  'get_recommendations',
  'get_artist_info',
] as const;
export type CompanionToolName = (typeof companionToolNames)[number];

export const companionSong = z.object({
  id: z.string(),
  title: z.string(),
  artist_id: z.string(),
  artist_name: z.string().optional(),
  genre: z.string().optional(),
});
export type CompanionSong = z.infer<typeof companionSong>;

/** What the client answers each tool with (function_call_output's output, as JSON). */
export const companionToolOutputs = {
  control_playback: z.object({
    ok: z.boolean(),
    now_playing: z.object({ title: z.string(), artist_name: z.string() }).optional(),
    error: z.string().optional(),
  }),
  search_music: z.object({ songs: z.array(companionSong) }),
  get_recommendations: z.object({ songs: z.array(companionSong) }),
  get_artist_info: z.object({
    artist: z
      .object({
        id: z.string(),
        name: z.string(),
        bio: z.string().nullable().optional(),
        followers: z.number().int(),
      })
      .nullable(),
    songs: z.array(companionSong),
  }),
} as const;

/** The unknown-tool answer (spec §7). */
export const notImplementedOutput = (name: string) => ({
  error: `Function ${name} is not implemented`,
});

// ── client → server ──────────────────────────────────────────────────────────────────────

export const clientEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_audio_buffer.append'), audio: z.string() }),
  z.object({
    type: z.literal('conversation.item.create'),
    item: z.discriminatedUnion('type', [
      z.object({
        type: z.literal('function_call_output'),
        call_id: z.string(),
        output: z.string(),
      }),
      z.object({
        type: z.literal('message'),
        role: z.literal('user'),
        content: z.array(z.object({ type: z.literal('input_text'), text: z.string() })).min(1),
      }),
    ]),
  }),
  z.object({ type: z.literal('response.create') }),
]);
export type CompanionClientEvent = z.infer<typeof clientEvent>;

// ── server → client ──────────────────────────────────────────────────────────────────────

export const companionSession = z.object({
  id: z.string(),
  /** Whether the server hears speech and speaks; false for either: 'text only'. */
  speech: z.object({ input: z.boolean(), output: z.boolean() }),
});

export const serverEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.created'), session: companionSession }),
  z.object({ type: z.literal('session.updated'), session: companionSession }),
  z.object({ type: z.literal('input_audio_buffer.speech_started') }),
  z.object({ type: z.literal('input_audio_buffer.speech_stopped') }),
  z.object({
    type: z.literal('conversation.item.input_audio_transcription.completed'),
    transcript: z.string(),
  }),
  z.object({ type: z.literal('response.audio_transcript.delta'), delta: z.string() }),
  z.object({ type: z.literal('response.audio.delta'), delta: z.string() }),
  z.object({ type: z.literal('response.audio.done') }),
  z.object({
    type: z.literal('response.function_call_arguments.done'),
    name: z.string(),
    arguments: z.string(),
    call_id: z.string(),
  }),
  z.object({ type: z.literal('response.done') }),
  z.object({
    type: z.literal('error'),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);
export type CompanionServerEvent = z.infer<typeof serverEvent>;
