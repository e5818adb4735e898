import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { shareApi } from '../../../contracts/api/share.api.ts';
import { needsStepUp } from '../../../core/auth/aal.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Principal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { SharingService } from './sharing.service.ts';

// The clip of a song stays the same until its renditions are made again; the ETag tells.
const PREVIEW_CACHE = 'public, max-age=86400';
// Titles, covers and a playlist's visibility change: consumers ask again within the hour.
const OEMBED_CACHE = 'public, max-age=3600';

/**
 * The signed-in listener asking, or null for a visitor (and for a session that owes its
 * second factor, which gets no more than a visitor).
 */
export function viewerOf(p: Principal | null): string | null {
  return p && !needsStepUp(p.aal, p.hasVerifiedFactor) ? p.userId : null;
}

// Public, and told who asks when a session is sent: a listener gets more than a visitor.
const SHARED = { access: 'public', optionalPrincipal: true } as const;

export const sharingRoutes =
  ({
    sharing,
    media,
  }: {
    sharing: SharingService;
    media: Pick<MediaModule, 'sendStored'>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, shareApi.song, {
      config: SHARED,
      schema: {
        tags: ['sharing'],
        summary:
          "A song as its share link shows it: whole to a signed-in listener, else with a 30 s preview and no file; 404 unless it's a ready upload",
      },
      handler: async (request, reply) => {
        const viewer = viewerOf(request.principal);
        // The answer depends on the session: shared caches must tell them apart.
        reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie, Authorization');
        return sharing.song(request.params.id, viewer);
      },
    });

    contractRoute(app, shareApi.playlist, {
      config: SHARED,
      schema: {
        tags: ['sharing'],
        summary:
          "A public playlist (or the caller's own private one) with its ready songs; anyone else's private playlist is a 404",
      },
      handler: async (request, reply) => {
        reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie, Authorization');
        return sharing.playlist(request.params.id, viewerOf(request.principal));
      },
    });

    contractRoute(app, shareApi.preview, {
      // Audio: its own headers, as /media's (helmet's are for documents).
      config: { access: 'public', securityHeaders: false },
      schema: {
        tags: ['sharing'],
        summary:
          'The first 30 s of a shareable song (Opus/WebM), public; Range, 206/416, ETag as /media',
      },
      handler: async (request, reply) => {
        const file = await sharing.previewFile(request.params.id);
        const outcome = await media.sendStored(request, reply, file, {
          access: { expires: undefined },
          cacheControl: PREVIEW_CACHE,
        });
        if (outcome.kind === 'absent') throw new AppError(ErrorCode.notFound, 'Song not found');
        if (outcome.kind === 'unsatisfiable') {
          reply.header('content-range', `bytes */${outcome.size}`).header('accept-ranges', 'bytes');
          throw new AppError(ErrorCode.rangeNotSatisfiable, 'Range not satisfiable', {
            size: outcome.size,
          });
        }
        return reply;
      },
    });

    contractRoute(app, shareApi.oembed, {
      config: { access: 'public' },
      schema: {
        tags: ['sharing'],
        summary:
          "oEmbed 1.0 for this server's song and public playlist links (JSON only: format=xml is a 501)",
      },
      handler: async (request, reply) => {
        const answer = await sharing.oembed(request.query);
        // Consumers (CMSs, chat apps) fetch it from their servers; browsers may too.
        reply.header('cache-control', OEMBED_CACHE).header('access-control-allow-origin', '*');
        return answer;
      },
    });
  };
