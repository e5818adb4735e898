import type { FastifyPluginAsync } from 'fastify';
import { EMBED_KINDS, type EmbedKind } from '../../../contracts/share.contract.ts';
import type { SharePages } from './share-pages.service.ts';

// Visitor data only, the same for everyone; asked again each time, so a playlist made
// private stops showing at once.
const EMBED_CACHE = 'public, no-cache';

/**
 * /embed/song/:id and /embed/playlist/:id: HTML for other sites' iframes, outside the JSON
 * route table as the web app's pages are. The only documents any site may frame
 * (config.embeddable: `frame-ancestors *`, no X-Frame-Options).
 */
export const embedPagesRoutes =
  ({ pages }: { pages: SharePages }): FastifyPluginAsync =>
  async (app) => {
    for (const kind of EMBED_KINDS) {
      app.route<{ Params: { id: string } }>({
        method: ['GET', 'HEAD'],
        url: `/embed/${kind}/:id`,
        config: { access: 'public', embeddable: true },
        schema: { hide: true },
        handler: async (request, reply) => {
          const page = await pages.embedPage(kind satisfies EmbedKind, request.params.id);
          return reply
            .status(page.status)
            .header('cache-control', EMBED_CACHE)
            .type('text/html; charset=utf-8')
            .send(page.html);
        },
      });
    }
  };
