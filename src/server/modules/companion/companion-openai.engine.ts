import { createRequire } from 'node:module';
import { z } from 'zod';
import {
  companionCloseCodes,
  controlPlaybackArgs,
  getArtistInfoArgs,
  getRecommendationsArgs,
  searchMusicArgs,
  serverEvent,
  type CompanionServerEvent,
  type CompanionToolName,
} from '../../../contracts/companion.contract.ts';
import type { Log } from '../../log.ts';
import type { CompanionEngine, EngineFactory, EngineSink } from './companion-engine.ts';

/*
 * AI_PROVIDER=openai (docs/decisions/0033): each companion socket is relayed to the OpenAI
 * Realtime API (or a compatible server at OPENAI_BASE_URL). The key is sent upstream only; the
 * browser's events go up after the socket's own checks, and only the contract's server events
 * come down. An upstream that cannot be reached, does not answer within AI_TIMEOUT_MS or goes
 * away ends the socket with an `error` event and 4502, never a hang.
 */

/** What the relay uses of a `ws` client socket (the package ships no types). */
type Upstream = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: Buffer) => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(
    event: 'unexpected-response',
    listener: (req: unknown, res: { statusCode?: number }) => void,
  ): unknown;
};
type UpstreamConstructor = new (
  url: string,
  options: { headers: Record<string, string>; handshakeTimeout: number; maxPayload: number },
) => Upstream;

const WebSocketClient = createRequire(import.meta.url)('ws') as UpstreamConstructor;

export type OpenAiRelaySettings = {
  baseUrl: string;
  apiKey: string | undefined;
  realtimeModel: string;
  timeoutMs: number;
};

const OPEN = 1;
/** Client events held while the upstream connects. */
const MAX_QUEUED = 256;

const INSTRUCTIONS =
  "You are Canto's music companion. Keep answers short and friendly. Use the tools to search " +
  'the catalogue, get recommendations, look up artists and control playback; to play ' +
  'something, find a song first and play it by its id. Never invent songs.';

const toolParameters: Record<CompanionToolName, z.ZodType> = {
  control_playback: controlPlaybackArgs,
  search_music: searchMusicArgs,
  get_recommendations: getRecommendationsArgs,
  get_artist_info: getArtistInfoArgs,
};
const toolDescriptions: Record<CompanionToolName, string> = {
  control_playback: 'Play (a song by id, or resume), pause, skip to the next or previous song.',
  search_music: 'Find songs whose title contains the query (at most 5).',
  get_recommendations: 'Songs recommended to the listener, of a genre when given (at most 10).',
  get_artist_info: 'An artist by name: followers, bio and songs.',
};

/** The session.update sent first: tools, PCM16 both ways, server VAD, transcription. */
export function sessionUpdate() {
  return {
    type: 'session.update',
    session: {
      modalities: ['text', 'audio'],
      instructions: INSTRUCTIONS,
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      input_audio_transcription: { model: 'whisper-1' },
      turn_detection: { type: 'server_vad' },
      tool_choice: 'auto',
      tools: (Object.keys(toolParameters) as CompanionToolName[]).map((name) => {
        const { $schema: _, ...parameters } = z.toJSONSchema(toolParameters[name]) as Record<
          string,
          unknown
        >;
        return { type: 'function', name, description: toolDescriptions[name], parameters };
      }),
    },
  };
}

/** An upstream event as the contract has it, or null when it is not one of its events. */
export function downstreamEvent(raw: unknown, sessionId: string): CompanionServerEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const event = raw as {
    type?: unknown;
    session?: { id?: unknown };
    error?: Record<string, unknown>;
  };
  if (event.type === 'session.created' || event.type === 'session.updated') {
    const id = typeof event.session?.id === 'string' ? event.session.id : sessionId;
    return { type: event.type, session: { id, speech: { input: true, output: true } } };
  }
  if (event.type === 'error') {
    const code = event.error?.code ?? event.error?.type;
    const message = event.error?.message;
    return {
      type: 'error',
      error: {
        code: typeof code === 'string' ? code : 'upstream_error',
        message: typeof message === 'string' ? message : 'The AI provider reported an error',
      },
    };
  }
  const parsed = serverEvent.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function createOpenAiEngines(deps: {
  settings: OpenAiRelaySettings;
  log: Log;
}): EngineFactory {
  const { settings, log } = deps;
  const url = `${settings.baseUrl.replace(/^http/, 'ws')}/realtime?model=${encodeURIComponent(settings.realtimeModel)}`;
  return {
    open(sink: EngineSink, session): CompanionEngine {
      let done = false;
      const fail = (message: string) => {
        if (done) return;
        done = true;
        clearTimeout(watchdog);
        sink.fail(companionCloseCodes.upstreamFailed, { code: 'upstream_failed', message });
        upstream?.terminate();
      };
      let watchdog: NodeJS.Timeout | undefined;
      /** Upstream must say something within the timeout, while something is awaited. */
      const await_ = (why: string) => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => fail(why), settings.timeoutMs);
      };
      let awaiting = false;

      if (!settings.apiKey) {
        fail('The AI provider is not configured (OPENAI_API_KEY is not set)');
        return { handle() {}, close() {} };
      }
      const queued: string[] = [];
      let upstream: Upstream | null = null;
      upstream = new WebSocketClient(url, {
        headers: { Authorization: `Bearer ${settings.apiKey}`, 'OpenAI-Beta': 'realtime=v1' },
        handshakeTimeout: settings.timeoutMs,
        maxPayload: 16 * 1024 * 1024,
      });
      await_('The AI provider did not answer in time');
      upstream.on('open', () => {
        if (done) return;
        clearTimeout(watchdog);
        upstream!.send(JSON.stringify(sessionUpdate()));
        for (const data of queued.splice(0)) upstream!.send(data);
        if (awaiting) await_('The AI provider did not answer in time');
      });
      upstream.on('message', (data) => {
        if (done) return;
        let raw: unknown;
        try {
          raw = JSON.parse(data.toString('utf8'));
        } catch {
          return;
        }
        const event = downstreamEvent(raw, session.id);
        if (!event) return;
        if (event.type === 'response.done') {
          awaiting = false;
          clearTimeout(watchdog);
        } else if (awaiting || event.type === 'input_audio_buffer.speech_stopped') {
          // Server VAD answers an utterance on its own: that answer is awaited too.
          awaiting = true;
          await_('The AI provider stopped answering');
        }
        sink.send(event);
      });
      upstream.on('unexpected-response', (_req, res) =>
        fail(`The AI provider refused the connection (HTTP ${res.statusCode ?? '?'})`),
      );
      upstream.on('error', (error) => {
        log.warn({ err: error }, 'companion: the AI provider socket failed');
        fail('The AI provider could not be reached');
      });
      upstream.on('close', () => fail('The AI provider closed the connection'));

      return {
        handle(event) {
          if (done) return;
          const { samples: _, ...wire } = event as typeof event & { samples?: Int16Array };
          const data = JSON.stringify(wire);
          if (event.type === 'response.create') {
            awaiting = true;
            if (upstream!.readyState === OPEN) await_('The AI provider did not answer in time');
          }
          if (upstream!.readyState === OPEN) upstream!.send(data);
          else if (queued.length < MAX_QUEUED) queued.push(data);
        },
        close() {
          done = true;
          clearTimeout(watchdog);
          upstream?.terminate();
        },
      };
    },
  };
}
