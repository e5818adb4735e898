import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { AiProvider, AiProviderSettings } from './ai-provider.ts';
import { createAiRepository } from './ai.repository.ts';
import { aiRoutes } from './ai.routes.ts';
import { createAiService } from './ai.service.ts';
import { createLocalProvider } from './local-provider.ts';
import { createOpenAiProvider } from './openai-provider.ts';

export type { AiProvider, AiProviderSettings };
export { AiProviderError, type AiFailure, type AiRequest } from './ai-provider.ts';

export type AiSettings = AiProviderSettings & {
  /** Each user's generations per hour (AI_GENERATIONS_PER_HOUR). */
  generationsPerHour: number;
};

/** The provider AI_PROVIDER names: what the generator and the companion both use. */
export function createAiProvider(settings: AiProviderSettings): AiProvider {
  return settings.provider === 'openai' ? createOpenAiProvider(settings) : createLocalProvider();
}

export type AiModule = FeatureModule & {
  /** The configured provider and its settings, for other AI features (the companion). */
  provider: AiProvider;
  settings: AiProviderSettings;
};

/**
 * The AI Music Creator (docs/decisions/0031) under /api/ai: lyrics and cover art from a
 * prompt through the configured provider, each kept in the user's history (covers stored in
 * the cover-art bucket, served under /media like song covers).
 */
export function createAiModule(
  ctx: ModuleContext,
  { settings }: { settings: AiSettings },
): AiModule {
  const provider = createAiProvider(settings);
  const ai = createAiService({
    provider,
    generations: createAiRepository(ctx.database.db),
    storage: ctx.storage,
    rateLimiter: ctx.rateLimiter,
    clock: ctx.clock,
    log: ctx.log,
    generationsPerHour: settings.generationsPerHour,
  });
  return {
    name: 'ai',
    provider,
    settings,
    plugin: async (app) => {
      await app.register(aiRoutes({ ai }));
    },
  };
}
