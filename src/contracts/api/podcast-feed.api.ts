import { episodeIdParams, podcastIdParams } from '../podcasts.contract.ts';
import { defineRoute } from './define-route.ts';

// Public and not JSON: podcast apps read these at the URLs a show hands out (feed_url and the
// feed's enclosures), docs/decisions/0019.
export const podcastFeedApi = {
  feed: defineRoute({
    method: 'GET',
    path: '/api/podcasts/:id/feed.xml',
    params: podcastIdParams,
    produces: 'application/rss+xml',
  }),
  artwork: defineRoute({
    method: 'GET',
    path: '/api/podcasts/:id/artwork.jpg',
    params: podcastIdParams,
    produces: 'image/jpeg',
  }),
  episodeAudio: defineRoute({
    method: 'GET',
    head: true,
    path: '/api/episodes/:id/audio',
    params: episodeIdParams,
    produces: 'audio',
  }),
};
