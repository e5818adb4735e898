import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  episodeDto,
  episodeIdParams,
  episodeProgressBody,
  episodeProgressDto,
  podcastDetail,
  podcastIdParams,
  podcastList,
  podcastShowDto,
} from '../../../contracts/podcasts.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
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

    app.get(
      '/podcasts',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['podcasts'],
          summary: 'Every show, newest first',
          response: { 200: podcastList },
        },
      },
      async () => ({ items: await podcasts.all() }),
    );

    app.get(
      '/me/podcasts',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: "The caller's own shows, newest first",
          response: { 200: podcastList },
        },
      },
      async (request) => ({ items: await podcasts.mine(requirePrincipal(request).userId) }),
    );

    app.get(
      '/podcasts/:id',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['podcasts'],
          summary:
            "One show and its episodes (episode number descending), with the caller's progress",
          params: podcastIdParams,
          response: { 200: podcastDetail },
        },
      },
      async (request) => podcasts.detail(request.params.id, requirePrincipal(request).userId),
    );

    app.post(
      '/podcasts',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: 'Create a show (optional cover ≤ 5 MB)',
          ...showForm.doc,
          response: { 201: podcastShowDto },
        },
      },
      async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const show = await withUpload(request, showForm, {}, (upload) =>
          podcasts.create(userId, upload),
        );
        return reply.status(201).send(show);
      },
    );

    app.patch(
      '/podcasts/:id',
      {
        // The artist role at the edge, the show's creator in the service.
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: 'Edit a show; a new cover replaces the old (its creator only)',
          ...showEditForm.doc,
          params: podcastIdParams,
          response: { 200: podcastShowDto },
        },
      },
      async (request) =>
        withUpload(request, showEditForm, {}, (upload) =>
          podcasts.update(requirePrincipal(request).userId, request.params.id, upload),
        ),
    );

    app.delete(
      '/podcasts/:id',
      {
        // The artist role at the edge (revoking it ends these rights), the creator in the service.
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: 'Delete a show, its episodes and their files (its creator only)',
          params: podcastIdParams,
        },
      },
      async (request, reply) => {
        await podcasts.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );

    app.post(
      '/podcasts/:id/episodes',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: 'Upload an episode to a show (its creator only; audio ≤ 100 MB)',
          ...episodeForm.doc,
          params: podcastIdParams,
          response: { 201: episodeDto },
        },
      },
      async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const episode = await withUpload(request, episodeForm, { tempDir }, (upload) =>
          episodes.upload(userId, request.params.id, upload),
        );
        return reply.status(201).send(episode);
      },
    );

    app.post(
      '/episodes/:id/reprocess',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary:
            "Process an episode's media again after it failed (its show's creator only; 409 unless failed)",
          params: episodeIdParams,
          response: { 202: episodeDto },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await episodes.reprocess(requirePrincipal(request).userId, request.params.id)),
    );

    app.delete(
      '/episodes/:id',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['podcasts'],
          summary: "Delete an episode and its files (its show's creator only)",
          params: episodeIdParams,
        },
      },
      async (request, reply) => {
        await episodes.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );

    app.put(
      '/me/episode-progress/:id',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['podcasts'],
          summary: 'Where the caller is in an episode (resumes on any device); played stays played',
          params: episodeIdParams,
          body: episodeProgressBody,
          response: { 200: episodeProgressDto },
        },
      },
      async (request) =>
        episodes.saveProgress(requirePrincipal(request).userId, request.params.id, request.body),
    );
  };
