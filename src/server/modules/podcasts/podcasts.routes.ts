import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
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
import { PODCAST_CATEGORIES, podcastLimits } from '../../../core/validation/podcast.rules.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import {
  multipartDoc,
  partsOf,
  type MultipartField,
  type MultipartLimits,
} from '../../http/multipart-parts.ts';
import type { EpisodesService } from './episodes.service.ts';
import type { PodcastsService } from './podcasts.service.ts';

// The parser's own ceilings; the services enforce the spec limits per part while streaming.
// A file may reach its limit + 1 byte here so the service sees the byte that breaks it.
// Text fields up to 32 kB: a 5,000-character description of 4-byte characters fits.
const showLimits: MultipartLimits = {
  fileSize: podcastLimits.coverMaxBytes + 1,
  files: 2,
  fields: 6,
  parts: 8,
  fieldSize: 32 * 1024,
  fieldNameSize: 64,
  headerPairs: 20,
};
const episodeLimits: MultipartLimits = { ...showLimits, fileSize: podcastLimits.audioMaxBytes + 1 };

const showParts = (request: FastifyRequest) => partsOf(request, showLimits);
const episodeParts = (request: FastifyRequest) => partsOf(request, episodeLimits);

const showForm = (titleRequired: boolean): Record<string, MultipartField> => ({
  title: {
    maxLength: podcastLimits.titleMax,
    ...(titleRequired ? { required: true } : {}),
    description: 'the show title (1–200 characters)',
  },
  description: { maxLength: podcastLimits.descriptionMax, description: 'optional' },
  language: { maxLength: podcastLimits.languageMax, description: 'a language tag, e.g. en' },
  category: { enum: PODCAST_CATEGORIES, description: 'an Apple Podcasts category' },
  explicit: { enum: ['true', 'false'], description: "'true' or 'false'" },
  cover: { file: true, description: 'optional cover image ≤ 5 MB' },
});

export const podcastsRoutes =
  ({
    podcasts,
    episodes,
  }: {
    podcasts: PodcastsService;
    episodes: EpisodesService;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only these routes (and songs') take multipart bodies.
    await app.register(multipart, { limits: episodeLimits, throwFileSizeLimit: true });

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
          ...multipartDoc(showForm(true)),
          response: { 201: podcastShowDto },
        },
      },
      async (request, reply) => {
        const show = await podcasts.create(requirePrincipal(request).userId, showParts(request));
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
          ...multipartDoc(showForm(false)),
          params: podcastIdParams,
          response: { 200: podcastShowDto },
        },
      },
      async (request) =>
        podcasts.update(requirePrincipal(request).userId, request.params.id, showParts(request)),
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
          ...multipartDoc({
            audio: {
              file: true,
              required: true,
              description: 'audio/*: MP3, WAV, FLAC, Ogg or M4A',
            },
            title: {
              maxLength: podcastLimits.episodeTitleMax,
              required: true,
              description: 'the episode title',
            },
            description: {
              maxLength: podcastLimits.episodeDescriptionMax,
              description: 'optional',
            },
            episode_number: { maxLength: 9, description: 'a whole number ≥ 1; default 1' },
          }),
          params: podcastIdParams,
          response: { 201: episodeDto },
        },
      },
      async (request, reply) => {
        const episode = await episodes.upload(
          requirePrincipal(request).userId,
          request.params.id,
          episodeParts(request),
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
