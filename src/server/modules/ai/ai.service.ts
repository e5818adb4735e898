import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type {
  GenerateBody,
  GenerationDto,
  GenerationList,
} from '../../../contracts/ai.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { aiMessages, HISTORY_LIMIT, SEED_MAX } from '../../../core/validation/ai.rules.ts';
import type { Log } from '../../log.ts';
import { rateRules, type RateLimiter } from '../../security/rate-limit.ts';
import { MEDIA_TYPES, ownedKey, type Storage } from '../../storage/storage.ts';
import { discardStored } from '../../storage/stored-objects.ts';
import { AiProviderError, type AiProvider } from './ai-provider.ts';
import type { AiRepository, GenerationRow } from './ai.repository.ts';

export type AiService = ReturnType<typeof createAiService>;

/** Covers sit beside song covers: the public cover-art bucket, so the upload can reuse them. */
const COVER_BUCKET = 'cover-art' as const;
/** A PNG cover of flat shapes is ~0.1–0.5 MB; a photo-like provider image up to a few MB. */
const COVER_MAX_BYTES = 16 * 1024 * 1024;

export function toGenerationDto(row: GenerationRow): GenerationDto {
  return {
    id: row.id,
    type: row.kind,
    prompt: row.prompt,
    seed: row.seed,
    text: row.text,
    imageUrl: row.imageUrl,
    created_at: row.createdAt.toISOString(),
  };
}

/** The AI Music Creator (spec §2, §7 generate-ai-content): generate, keep, list. */
export function createAiService(deps: {
  provider: AiProvider;
  generations: AiRepository;
  storage: Storage;
  rateLimiter: RateLimiter;
  clock: Clock;
  log: Log;
  generationsPerHour: number;
}) {
  const { provider, generations, storage, log } = deps;
  const rule = { ...rateRules.aiGeneratePerUser, limit: deps.generationsPerHour };

  /** The provider's answer, or 'Generation failed' (502) whatever went wrong inside it. */
  async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const reason = error instanceof AiProviderError ? error.reason : 'internal';
      log.warn({ err: error, provider: provider.kind, what, reason }, 'AI generation failed');
      throw new AppError(ErrorCode.aiGenerationFailed, aiMessages.failed, { reason });
    }
  }

  async function coverKey(userId: string, format: 'png' | 'webp'): Promise<string> {
    for (let at = deps.clock.now().getTime(); ; at++) {
      const key = ownedKey(userId, at, format);
      if (!(await storage.exists(COVER_BUCKET, key))) return key;
    }
  }

  return {
    /**
     * One generation for the signed-in user. The body was checked by its schema (a blank or
     * oversized prompt never gets here); each attempt counts against the hourly budget, a
     * failed one too (it cost the provider as much).
     */
    async generate(userId: string, body: GenerateBody): Promise<GenerationDto> {
      const seed = body.seed ?? crypto.randomInt(0, SEED_MAX);
      const request = { prompt: body.prompt.trim(), seed };
      await deps.rateLimiter.hit({ rule, subject: userId });
      const base = {
        userId,
        kind: body.type,
        prompt: request.prompt,
        seed,
        provider: provider.kind,
      };
      if (body.type === 'lyrics') {
        const { text } = await ask('lyrics', () => provider.lyrics(request));
        const row = await generations.insert({ ...base, text, now: deps.clock.now() });
        return toGenerationDto(row);
      }
      const { bytes, format } = await ask('cover-art', () => provider.coverArt(request));
      const key = await coverKey(userId, format);
      await storage.put(COVER_BUCKET, key, Readable.from([bytes]), {
        contentType: MEDIA_TYPES[format],
        maxBytes: COVER_MAX_BYTES,
      });
      try {
        const row = await generations.insert({
          ...base,
          imageUrl: `/media/${COVER_BUCKET}/${key}`,
          imageKey: key,
          now: deps.clock.now(),
        });
        return toGenerationDto(row);
      } catch (error) {
        await discardStored(storage, log, [[COVER_BUCKET, key]]);
        throw error;
      }
    },

    async history(userId: string): Promise<GenerationList> {
      const rows = await generations.recent(userId, HISTORY_LIMIT);
      return { generations: rows.map(toGenerationDto) };
    },
  };
}
