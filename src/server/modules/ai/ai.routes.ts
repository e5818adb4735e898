import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { aiApi } from '../../../contracts/api/ai.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { AiService } from './ai.service.ts';

// Both routes act for the signed-in caller: a generation and its history are only theirs.
export const aiRoutes =
  ({ ai }: { ai: AiService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, aiApi.generate, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['ai'],
        summary:
          'Generate lyrics (text) or cover art (imageUrl, a 1400 px PNG, or WebP for a photo-like picture) from a prompt; 502 ai_generation_failed when the provider fails',
      },
      handler: async (request, reply) => {
        const generation = await ai.generate(requirePrincipal(request).userId, request.body);
        return reply.code(201).send(generation);
      },
    });

    contractRoute(app, aiApi.generations, {
      config: { access: 'signed-in' },
      schema: { tags: ['ai'], summary: "The caller's latest 20 generations, newest first" },
      handler: async (request) => ai.history(requirePrincipal(request).userId),
    });
  };
