import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { PremiumModule } from '../premium/premium.module.ts';
import { AD_MEDIA_JOB, createAdMediaJob, enqueueAdMedia } from './ad-media.job.ts';
import { createAdMediaRepository } from './ad-media.repository.ts';
import { createShowingSigner } from './ad-showing.ts';
import { createAdsRepository } from './ads.repository.ts';
import { adsRoutes } from './ads.routes.ts';
import { createAdsService } from './ads.service.ts';

/**
 * The ad inventory (admins), get-active-ads and track-ad-impression (docs/decisions/0023),
 * under /api. Ad audio goes through the one media job
 * (renditions, loudness) as songs' and episodes' does.
 */
export type AdsSettings = {
  /** Where an upload waits while it is checked (media's uploadTempDir). */
  tempDir: string;
  /** MEDIA_WORKERS: media jobs this process runs at once, as many as ffmpeg runs. */
  mediaWorkers: number;
};

export function createAdsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    premium,
    settings,
  }: {
    media: Pick<MediaModule, 'publicUrl'>;
    premium: Pick<PremiumModule, 'isSubscribed'>;
    settings: AdsSettings;
  },
): FeatureModule {
  const db = ctx.database.db;
  const mediaJob = createAdMediaJob({
    rows: createAdMediaRepository(db),
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
  });
  ctx.jobs.register(AD_MEDIA_JOB, mediaJob.run, {
    concurrency: settings.mediaWorkers,
    onDead: mediaJob.onDead,
  });
  const ads = createAdsService({
    ads: createAdsRepository(db),
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
    clock: ctx.clock,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out.
    publicUrl: mediaModule.publicUrl,
    showings: createShowingSigner({
      secretKey: ctx.secretKey,
      clock: ctx.clock,
    }),
    isSubscribed: premium.isSubscribed,
    enqueueMedia: (audioKey, tx) => enqueueAdMedia(ctx.jobs, audioKey, tx),
  });
  const routes = adsRoutes({ ads });
  return {
    name: 'ads',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
