import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { MediaModule, MediaOffload } from '../media/media.module.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import { createPseudonymizer } from '../../security/pseudonym.ts';
import { podcastFeedRoutes } from './podcast-feed.routes.ts';
import { createPodcastFeedRepository } from './podcast-feed.repository.ts';
import { createPodcastFeedService } from './podcast-feed.service.ts';

/**
 * Each show's public RSS feed and its episodes' public enclosure URLs
 * (docs/decisions/0019), under /api: GET /podcasts/{id}/feed.xml and GET|HEAD
 * /episodes/{id}/audio, both without a session. The feed URL and podcast:guid are the
 * podcasts module's (`feedUrlOf`, `podcastGuidOf`; it fixes the guid when a show is made);
 * a show without one gets it on its feed's first fetch.
 */
export { episodeAudioUrlOf } from './feed-urls.ts';

export type PodcastFeedSettings = {
  /** PUBLIC_URL: feeds name absolute URLs (the feed, the show's page, enclosures). */
  publicUrl: string;
  /** MEDIA_OFFLOAD: how an enclosure's bytes are sent, as /media's are. */
  offload: MediaOffload;
};

export function createPodcastFeedModule(
  ctx: ModuleContext,
  {
    media,
    podcasts,
    settings,
  }: {
    media: Pick<MediaModule, 'publicUrl'>;
    podcasts: Pick<PodcastsModule, 'fixFeedGuid'>;
    settings: PodcastFeedSettings;
  },
): FeatureModule {
  const feeds = createPodcastFeedService({
    feeds: createPodcastFeedRepository(ctx.database.db),
    fixFeedGuid: podcasts.fixFeedGuid,
    storage: ctx.storage,
    publicUrl: settings.publicUrl,
    mediaUrl: (stored) => media.publicUrl(stored),
    offload: settings.offload,
    listenerOf: createPseudonymizer(ctx.secretKey, 'podcast-downloads'),
    clock: ctx.clock,
  });
  const routes = podcastFeedRoutes({ feeds });
  return {
    name: 'podcast-feed',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
