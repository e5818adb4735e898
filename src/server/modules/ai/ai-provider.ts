/**
 * What the AI features ask of a provider (docs/decisions/0031). `local` answers offline from
 * the prompt alone; `openai` asks any OpenAI-compatible server. A provider never answers with
 * a half result: it returns one or throws AiProviderError.
 */
export type AiRequest = { prompt: string; seed: number };

export interface AiProvider {
  readonly kind: 'local' | 'openai';
  /** Lyrics as plain text: a title, then sections under [Verse 1], [Chorus]… */
  lyrics(request: AiRequest): Promise<{ text: string }>;
  /**
   * Cover art, COVER_SIZE pixels square: a PNG, or a WebP where a PNG of the picture would be
   * too big for the upload's 5 MB (a photo-like picture from a server).
   */
  coverArt(request: AiRequest): Promise<{ bytes: Buffer; format: 'png' | 'webp' }>;
}

/** Why a provider gave no result; logged, never shown (people read 'Generation failed'). */
export type AiFailure =
  'timeout' | 'rate_limited' | 'upstream_error' | 'unreachable' | 'bad_answer';

export class AiProviderError extends Error {
  constructor(
    readonly reason: AiFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AiProviderError';
  }
}

/** The provider's settings, as app.ts maps them from env.ts (AI_PROVIDER, OPENAI_*). */
export type AiProviderSettings = {
  provider: 'local' | 'openai';
  openai: {
    baseUrl: string;
    apiKey: string | undefined;
    chatModel: string;
    imageModel: string;
    realtimeModel: string;
  };
  /** Bounds one provider call, the whole of it (connect, answer, body, an image's download). */
  timeoutMs: number;
};
