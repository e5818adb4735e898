import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { podcastFeedApi } from '../../../contracts/api/podcast-feed.api.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { noneMatch } from '../../http/byte-ranges.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { bodyLengthHeaders, sendFileBody } from '../../http/send-file-body.ts';
import type { PodcastFeedService } from './podcast-feed.service.ts';

// Podcast apps poll feeds; a few minutes' staleness is normal for them and spares the work.
const FEED_CACHE = 'public, max-age=300';
// Clients may keep the bytes but ask again (ETag), so each download reaches the counter and
// a replaced file is never served stale by a cache in between.
const AUDIO_CACHE = 'public, no-cache';
// Artwork changes only with the cover; a day, then the ETag says whether it did.
const ARTWORK_CACHE = 'public, max-age=86400';
// Public, credential-free content: browser-based podcast players on other origins may read it.
const OPEN: OutgoingHttpHeaders = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'content-length, content-range, accept-ranges, etag',
  'cross-origin-resource-policy': 'cross-origin',
};

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Public, no session (config.access 'public'): podcast apps subscribe to the feed and
 * download the enclosures later, from anywhere (docs/decisions/0019).
 */
export const podcastFeedRoutes =
  ({ feeds }: { feeds: PodcastFeedService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, podcastFeedApi.feed, {
      config: { access: 'public' },
      schema: {
        tags: ['podcasts'],
        summary:
          "The show's RSS 2.0 feed (itunes and podcast namespaces), public; ETag and If-None-Match",
      },
      handler: async (request, reply) => {
        const feed = await feeds.feed(request.params.id);
        reply.headers({ ...OPEN, etag: feed.etag, 'cache-control': FEED_CACHE });
        if (noneMatch(header(request, 'if-none-match'), feed.etag)) return reply.code(304).send();
        return reply.type('application/rss+xml; charset=utf-8').send(feed.xml);
      },
    });

    contractRoute(app, podcastFeedApi.artwork, {
      // An image: its own headers, as media has (helmet's are for documents).
      config: { access: 'public', securityHeaders: false },
      schema: {
        tags: ['podcasts'],
        summary:
          "The show's cover as a square 1400 px JPEG (the feed's itunes:image, as Apple's directory wants it), public; ETag and If-None-Match",
      },
      handler: async (request, reply) => {
        const artwork = await feeds.artwork(request.params.id);
        reply.headers({
          ...OPEN,
          etag: artwork.etag,
          'cache-control': ARTWORK_CACHE,
          'x-content-type-options': 'nosniff',
        });
        if (noneMatch(header(request, 'if-none-match'), artwork.etag))
          return reply.code(304).send();
        return reply.type('image/jpeg').send(await artwork.render());
      },
    });

    // GET and HEAD (the entry's `head`), both answered here.
    contractRoute(app, podcastFeedApi.episodeAudio, {
      // Media sets its own headers; helmet's are for documents (as on /media).
      config: { access: 'public', securityHeaders: false },
      schema: {
        tags: ['podcasts'],
        summary:
          "An episode's original audio at its stable public URL (the feed's enclosure): Range, HEAD; a GET from byte 0 counts a download",
      },
      handler: async (request, reply) => {
        const answer = await feeds.episodeAudio(request.params.id, {
          method: request.method === 'HEAD' ? 'HEAD' : 'GET',
          client: { ip: request.ip, userAgent: header(request, 'user-agent') ?? '' },
          range: header(request, 'range'),
          ifRange: header(request, 'if-range'),
          ifNoneMatch: header(request, 'if-none-match'),
          ifModifiedSince: header(request, 'if-modified-since'),
        });
        switch (answer.kind) {
          case 'redirect':
            // Never stored: the target's signature expires, and every request must count.
            return reply
              .code(302)
              .headers({ ...OPEN, location: answer.location, 'cache-control': 'no-store' })
              .send();
          case 'not-modified':
            return reply
              .code(304)
              .headers({
                ...OPEN,
                etag: answer.etag,
                'last-modified': answer.lastModified.toUTCString(),
                'cache-control': AUDIO_CACHE,
              })
              .send();
          case 'unsatisfiable':
            reply.header('content-range', `bytes */${answer.size}`);
            throw new AppError(ErrorCode.rangeNotSatisfiable, 'Range not satisfiable', {
              size: answer.size,
            });
        }
        const { part, body } = answer;
        const headers: OutgoingHttpHeaders = {
          ...OPEN,
          'content-type': answer.contentType,
          etag: answer.etag,
          'last-modified': answer.lastModified.toUTCString(),
          'cache-control': AUDIO_CACHE,
          'accept-ranges': 'bytes',
          'x-content-type-options': 'nosniff',
        };
        // Written directly, as /media writes files.
        sendFileBody(request, reply, bodyLengthHeaders(headers, part, answer.size), headers, body);
      },
    });
  };
