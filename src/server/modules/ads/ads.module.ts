import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { PremiumModule } from '../premium/premium.module.ts';
import type { MediaJobKind } from '../../media/media-job.ts';
import { createAdMediaRepository, createAdsRepository } from './ads.repository.ts';
import { adsRoutes } from './ads.routes.ts';
import { createAdsService } from './ads.service.ts';

/**
 * An ad's audio and its renditions live in the music bucket (signed like songs). The job's
 * item is the stored audio file (`music/<key>`, createAdMediaRepository), so a replaced file
 * gets its own job even while the old one runs.
 */
const AD_MEDIA: MediaJobKind = {
  name: 'ads.ad-media',
  idField: 'audioKey',
  bucket: 'music',
  label: 'ad audio',
};

/**
 * The ad inventory (admins), get-active-ads and track-ad-impression (docs/decisions/0023),
 * under /api. Ad audio goes through the one media job
 * (renditions, loudness) as songs' and episodes' does.
 */
export function createAdsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    premium,
    settings,
  }: {
    media: Pick<MediaModule, 'publicUrl' | 'registerJob' | 'tempDir'>;
    premium: Pick<PremiumModule, 'isSubscribed'>;
    settings: { showingIntervalSeconds: number; showingAsksPerMinute: number };
  },
): FeatureModule {
  const db = ctx.database.db;
  const media = createAdMediaRepository(db);
  const ads = createAdsService({
    ads: createAdsRepository(db),
    media,
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    log: ctx.log,
    clock: ctx.clock,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out.
    publicUrl: mediaModule.publicUrl,
    showingIntervalSeconds: settings.showingIntervalSeconds,
    showingAsksPerMinute: settings.showingAsksPerMinute,
    limiter: ctx.rateLimiter,
    isSubscribed: premium.isSubscribed,
    enqueueMedia: mediaModule.registerJob(AD_MEDIA, media),
  });
  const routes = adsRoutes({ ads, tempDir: mediaModule.tempDir });
  return {
    name: 'ads',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
