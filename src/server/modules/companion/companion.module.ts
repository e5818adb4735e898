import { liveOrigins } from '../../events/live-origin.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PremiumModule } from '../premium/premium.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createLocalEngines } from './companion-local.engine.ts';
import { createOpenAiEngines, type OpenAiRelaySettings } from './companion-openai.engine.ts';
import { createSpeech, DEFAULT_MODEL_DIR, type CatalogueNames } from './companion-speech.ts';
import {
  createCompanionService,
  defaultCompanionLimits,
  type CompanionLimits,
} from './companion.service.ts';
import { companionRoutes } from './companion-socket.routes.ts';

export type CompanionSettings = {
  /** AI_PROVIDER: the offline engine, or the relay to an OpenAI-compatible Realtime API. */
  provider: 'local' | 'openai';
  openai: OpenAiRelaySettings;
  /** PUBLIC_URL: the origin whose pages may open the socket. */
  publicUrl: string;
  /** CANTO_DEV: the Vite dev server's pages may open it too. */
  dev: boolean;
  limits?: CompanionLimits;
};

export type CompanionModule = FeatureModule & {
  /** Whether the local engine hears and speaks on this machine (found once, at start). */
  speech: { input: boolean; output: boolean };
};

const DEV_ORIGINS = ['http://localhost:5173'];
/** The most played songs whose titles and artists the recognizer hears, re-read this often. */
const VOCABULARY_SONGS = 200;
const VOCABULARY_MS = 60_000;

/** The catalogue's names, read at most once a minute and shared by every conversation. */
function vocabulary(songs: Pick<SongsModule, 'catalogueNames'>): () => Promise<CatalogueNames> {
  let held: { at: number; names: Promise<CatalogueNames> } | null = null;
  return () => {
    if (!held || Date.now() - held.at > VOCABULARY_MS) {
      const names = songs.catalogueNames(VOCABULARY_SONGS);
      held = { at: Date.now(), names };
      names.catch(() => (held = null));
    }
    return held.names;
  };
}

/**
 * The AI companion socket GET /api/ai/companion (docs/decisions/0033), for premium
 * subscribers: the local engine (pocketsphinx and espeak-ng when present) or the OpenAI
 * Realtime relay. Tools run in the listener's browser; the server only asks for them.
 */
export function createCompanionModule(
  ctx: Pick<ModuleContext, 'log'>,
  {
    premium,
    songs,
    settings,
  }: {
    premium: Pick<PremiumModule, 'isSubscribed'>;
    songs: Pick<SongsModule, 'catalogueNames'>;
    settings: CompanionSettings;
  },
): CompanionModule {
  const speech = createSpeech({
    modelDir: DEFAULT_MODEL_DIR,
    timeoutMs: Math.min(settings.openai.timeoutMs, 10_000),
  });
  const engines =
    settings.provider === 'openai'
      ? createOpenAiEngines({ settings: settings.openai, log: ctx.log })
      : createLocalEngines({ speech, log: ctx.log, names: vocabulary(songs) });
  const companion = createCompanionService({
    engines,
    isSubscribed: premium.isSubscribed,
    limits: settings.limits ?? defaultCompanionLimits,
    log: ctx.log,
  });
  const origins = liveOrigins(settings.publicUrl, settings.dev ? DEV_ORIGINS : []);
  return {
    name: 'companion',
    plugin: async (app) => {
      app.addHook('onClose', async () => speech.close());
      await app.register(companionRoutes({ companion, origins }), { prefix: '/api' });
    },
    speech: { input: speech.input, output: speech.output },
  };
}
