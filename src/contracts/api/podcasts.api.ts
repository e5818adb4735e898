import {
  episodeDto,
  episodeIdParams,
  episodeProgressBody,
  episodeProgressDto,
  podcastDetail,
  podcastIdParams,
  podcastList,
  podcastShowDto,
} from '../podcasts.contract.ts';
import { defineRoute } from './define-route.ts';

export const podcastsApi = {
  all: defineRoute({ method: 'GET', path: '/api/podcasts', response: podcastList }),
  mine: defineRoute({ method: 'GET', path: '/api/me/podcasts', response: podcastList }),
  get: defineRoute({
    method: 'GET',
    path: '/api/podcasts/:id',
    params: podcastIdParams,
    response: podcastDetail,
  }),
  /** Multipart: podcastFields (title, description, language, category, explicit) and `cover`. */
  create: defineRoute({
    method: 'POST',
    path: '/api/podcasts',
    multipart: true,
    status: 201,
    response: podcastShowDto,
  }),
  /** Multipart, as create; every field optional. */
  update: defineRoute({
    method: 'PATCH',
    path: '/api/podcasts/:id',
    params: podcastIdParams,
    multipart: true,
    response: podcastShowDto,
  }),
  remove: defineRoute({ method: 'DELETE', path: '/api/podcasts/:id', params: podcastIdParams }),
  /** Multipart: `audio`, `title`, `description`, `episode_number`. */
  uploadEpisode: defineRoute({
    method: 'POST',
    path: '/api/podcasts/:id/episodes',
    params: podcastIdParams,
    multipart: true,
    status: 201,
    response: episodeDto,
  }),
  reprocessEpisode: defineRoute({
    method: 'POST',
    path: '/api/episodes/:id/reprocess',
    params: episodeIdParams,
    status: 202,
    response: episodeDto,
  }),
  removeEpisode: defineRoute({
    method: 'DELETE',
    path: '/api/episodes/:id',
    params: episodeIdParams,
  }),
  saveProgress: defineRoute({
    method: 'PUT',
    path: '/api/me/episode-progress/:id',
    params: episodeIdParams,
    body: episodeProgressBody,
    response: episodeProgressDto,
  }),
};
