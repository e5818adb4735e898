import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { podcastsApi } from '../../../contracts/api/podcasts.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { acceptUploads, withUpload } from '../../media/upload-form.ts';
import type { EpisodesService } from './episodes.service.ts';
import { episodeForm, showEditForm, showForm } from './podcasts.forms.ts';
import type { PodcastsService } from './podcasts.service.ts';

export const podcastsRoutes =
  ({
    podcasts,
    episodes,
    tempDir,
  }: {
    podcasts: PodcastsService;
    episodes: EpisodesService;
    /** Where an episode's audio waits while it is checked: `${DATA_DIR}/tmp`. */
    tempDir: string;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only these routes (and songs') take multipart bodies.
    await acceptUploads(app, episodeForm);

    contractRoute(app, podcastsApi.all, {
      config: { access: 'signed-in' },
      schema: { tags: ['podcasts'], summary: 'Every show, newest first' },
      handler: async () => ({ items: await podcasts.all() }),
    });

    contractRoute(app, podcastsApi.mine, {
      config: { access: 'artist' },
      schema: { tags: ['podcasts'], summary: "The caller's own shows, newest first" },
      handler: async (request) => ({
        items: await podcasts.mine(requirePrincipal(request).userId),
      }),
    });

    contractRoute(app, podcastsApi.get, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['podcasts'],
        summary:
          "One show and its episodes (episode number descending), with the caller's progress",
      },
      handler: async (request) =>
        podcasts.detail(request.params.id, requirePrincipal(request).userId),
    });

    contractRoute(app, podcastsApi.create, {
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary: 'Create a show (optional cover ≤ 5 MB)',
        ...showForm.doc,
      },
      handler: async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const show = await withUpload(request, showForm, {}, (upload) =>
          podcasts.create(userId, upload),
        );
        return reply.status(201).send(show);
      },
    });

    contractRoute(app, podcastsApi.update, {
      // The artist role at the edge, the show's creator in the service.
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary: 'Edit a show; a new cover replaces the old (its creator only)',
        ...showEditForm.doc,
      },
      handler: async (request) =>
        withUpload(request, showEditForm, {}, (upload) =>
          podcasts.update(requirePrincipal(request).userId, request.params.id, upload),
        ),
    });

    contractRoute(app, podcastsApi.remove, {
      // The artist role at the edge (revoking it ends these rights), the creator in the service.
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary: 'Delete a show, its episodes and their files (its creator only)',
      },
      handler: async (request, reply) => {
        await podcasts.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });

    contractRoute(app, podcastsApi.uploadEpisode, {
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary: 'Upload an episode to a show (its creator only; audio ≤ 100 MB)',
        ...episodeForm.doc,
      },
      handler: async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const episode = await withUpload(request, episodeForm, { tempDir }, (upload) =>
          episodes.upload(userId, request.params.id, upload),
        );
        return reply.status(201).send(episode);
      },
    });

    contractRoute(app, podcastsApi.reprocessEpisode, {
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary:
          "Process an episode's media again after it failed (its show's creator only; 409 unless failed)",
      },
      handler: async (request, reply) =>
        reply
          .status(202)
          .send(await episodes.reprocess(requirePrincipal(request).userId, request.params.id)),
    });

    contractRoute(app, podcastsApi.removeEpisode, {
      config: { access: 'artist' },
      schema: {
        tags: ['podcasts'],
        summary: "Delete an episode and its files (its show's creator only)",
      },
      handler: async (request, reply) => {
        await episodes.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });

    contractRoute(app, podcastsApi.saveProgress, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['podcasts'],
        summary: 'Where the caller is in an episode (resumes on any device); played stays played',
      },
      handler: async (request) =>
        episodes.saveProgress(requirePrincipal(request).userId, request.params.id, request.body),
    });
  };
