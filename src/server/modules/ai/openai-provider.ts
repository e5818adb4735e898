import sharp from 'sharp';
import { COVER_SIZE } from '../../../core/validation/ai.rules.ts';
import { isPublicHttpsUrl } from '../../security/outbound-guard.ts';
import {
  AiProviderError,
  type AiFailure,
  type AiProvider,
  type AiProviderSettings,
} from './ai-provider.ts';

/** An answer bigger than this is not one we asked for (a 1024² PNG in base64 is ~2–4 MB). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** The upload takes covers up to 5 MB (spec §5): a picture whose PNG is bigger is a WebP. */
const COVER_MAX_PNG_BYTES = 4.5 * 1024 * 1024;
/** Lyrics longer than this are cut: the history shows them whole. */
const MAX_LYRICS_CHARS = 20_000;

const SYSTEM_PROMPT =
  'You write original song lyrics. Answer with the lyrics only: a title on the first line, ' +
  'then sections headed [Verse 1], [Chorus], [Verse 2], [Chorus], with end rhymes and a ' +
  'steady number of syllables per line.';

const fail = (reason: AiFailure, message: string) => new AiProviderError(reason, message);

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * AI_PROVIDER=openai: any server speaking OpenAI's HTTP API (OpenAI, Ollama, vLLM, LocalAI).
 * Every call is bounded by timeoutMs; a timeout, a refusal or an answer that is not what the
 * protocol promises becomes an AiProviderError, never a hang or a half result.
 */
export function createOpenAiProvider(settings: AiProviderSettings): AiProvider {
  const { baseUrl, apiKey, chatModel, imageModel } = settings.openai;
  const origin = new URL(baseUrl).origin;

  /** The body of a successful answer, read whole under the call's signal. */
  async function read(response: Response): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw fail('bad_answer', `answer of ${declared} bytes`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > MAX_ANSWER_BYTES)
      throw fail('bad_answer', `answer of ${bytes.length} bytes`);
    return bytes;
  }

  async function send(url: string, init: RequestInit, signal: AbortSignal): Promise<Buffer> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal, redirect: 'error' });
    } catch (error) {
      if (isAbort(error)) throw fail('timeout', `no answer within ${settings.timeoutMs} ms`);
      throw fail('unreachable', (error as Error).message);
    }
    try {
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw fail(
          response.status === 429 ? 'rate_limited' : 'upstream_error',
          `${url} answered ${response.status}`,
        );
      }
      return await read(response);
    } catch (error) {
      if (error instanceof AiProviderError) throw error;
      if (isAbort(error)) throw fail('timeout', `answer not read within ${settings.timeoutMs} ms`);
      throw fail('unreachable', (error as Error).message);
    }
  }

  async function postJson(path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const bytes = await send(
      `${baseUrl}${path}`,
      { method: 'POST', headers, body: JSON.stringify(body) },
      signal,
    );
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      throw fail('bad_answer', `${path} answered something that is not JSON`);
    }
  }

  /** An image URL the server handed out: its own origin or a public https address only. */
  async function download(url: string, signal: AbortSignal): Promise<Buffer> {
    let parsed: URL;
    try {
      parsed = new URL(url, baseUrl);
    } catch {
      throw fail('bad_answer', 'image url is not a URL');
    }
    if (parsed.origin !== origin && !isPublicHttpsUrl(parsed.href))
      throw fail('bad_answer', `image url ${parsed.origin} is neither the provider nor public`);
    return send(parsed.href, { method: 'GET' }, signal);
  }

  return {
    kind: 'openai',

    async lyrics({ prompt, seed }) {
      const answer = (await postJson(
        '/chat/completions',
        {
          model: chatModel,
          seed,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: prompt },
          ],
        },
        AbortSignal.timeout(settings.timeoutMs),
      )) as { choices?: { message?: { content?: unknown } }[] } | null;
      const content = answer?.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '')
        throw fail('bad_answer', 'chat completion without message content');
      return { text: content.trim().slice(0, MAX_LYRICS_CHARS) };
    },

    async coverArt({ prompt }) {
      const signal = AbortSignal.timeout(settings.timeoutMs);
      const answer = (await postJson(
        '/images/generations',
        { model: imageModel, prompt: `Album cover art: ${prompt}`, n: 1, size: '1024x1024' },
        signal,
      )) as { data?: { b64_json?: unknown; url?: unknown }[] } | null;
      const first = answer?.data?.[0];
      let bytes: Buffer;
      if (typeof first?.b64_json === 'string' && first.b64_json !== '')
        bytes = Buffer.from(first.b64_json, 'base64');
      else if (typeof first?.url === 'string') bytes = await download(first.url, signal);
      else throw fail('bad_answer', 'image generation without b64_json or url');
      try {
        // Decoded and re-encoded: whatever came back, Canto stores and serves a clean PNG.
        const image = sharp(bytes, { limitInputPixels: 64_000_000 }).resize(
          COVER_SIZE,
          COVER_SIZE,
          {
            fit: 'cover',
          },
        );
        const png = await image.clone().png().toBuffer();
        if (png.length <= COVER_MAX_PNG_BYTES) return { bytes: png, format: 'png' };
        // A photo-like picture: WebP keeps it a cover the upload accepts, in a fraction of the
        // time a 256-colour PNG's quantisation takes.
        return { bytes: await image.webp({ quality: 90 }).toBuffer(), format: 'webp' };
      } catch {
        throw fail('bad_answer', 'image generation answered bytes that are not an image');
      }
    },
  };
}
