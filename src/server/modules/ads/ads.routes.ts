import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activeAdResponse,
  adActiveBody,
  adIdParams,
  adImpressionBody,
  adImpressionResult,
  adminAdDto,
  adminAdList,
} from '../../../contracts/ads.contract.ts';
import { adLimits } from '../../../core/validation/ad.rules.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import {
  multipartDoc,
  partsOf,
  type MultipartField,
  type MultipartLimits,
} from '../../http/multipart-parts.ts';
import type { AdsService } from './ads.service.ts';

// The parser's own ceilings; the service enforces the limits per part while streaming. A
// file may reach its limit + 1 byte here so the service sees the byte that breaks it.
const adFormLimits: MultipartLimits = {
  fileSize: adLimits.audioMaxBytes + 1,
  // One more than the form has: a stray file is refused by name, after the rest is read.
  files: 3,
  fields: 8,
  parts: 10,
  fieldSize: 16 * 1024,
  fieldNameSize: 64,
  headerPairs: 20,
};

const adParts = (request: FastifyRequest) => partsOf(request, adFormLimits);

const adForm = (edit: boolean): Record<string, MultipartField> => ({
  title: {
    maxLength: adLimits.titleMax,
    ...(edit ? {} : { required: true }),
    description: 'the ad title (1–200 characters)',
  },
  description: { maxLength: adLimits.descriptionMax, description: 'optional; empty clears' },
  target_url: {
    maxLength: adLimits.targetUrlMax,
    description: 'an http or https address; empty clears',
  },
  duration: {
    maxLength: 9,
    description: 'whole seconds 1–600, used when there is no audio (default 30)',
  },
  image: { file: true, description: 'optional image ≤ 5 MB (checked like a song cover)' },
  audio: { file: true, description: 'optional audio/*: MP3, WAV, FLAC, Ogg or M4A, ≤ 100 MB' },
  ...(edit
    ? {
        remove_image: { enum: ['true'], description: "'true' removes the image" },
        remove_audio: { enum: ['true'], description: "'true' removes the audio" },
      }
    : {}),
});

export const adsRoutes =
  ({ ads }: { ads: AdsService }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only the upload routes take multipart bodies.
    await app.register(multipart, { limits: adFormLimits, throwFileSizeLimit: true });

    app.get(
      '/admin/ads',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['ads'],
          summary: 'The ad inventory: every ad, newest first',
          response: { 200: adminAdList },
        },
      },
      async () => ({ items: await ads.all() }),
    );

    app.post(
      '/admin/ads',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['ads'],
          summary: 'Create an ad (active at once); its audio goes through the media pipeline',
          ...multipartDoc(adForm(false)),
          response: { 201: adminAdDto },
        },
      },
      async (request, reply) => reply.status(201).send(await ads.create(adParts(request))),
    );

    app.patch(
      '/admin/ads/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['ads'],
          summary: 'Edit an ad; a new image or audio replaces the old',
          ...multipartDoc(adForm(true)),
          params: adIdParams,
          response: { 200: adminAdDto },
        },
      },
      async (request) => ads.update(request.params.id, adParts(request)),
    );

    app.put(
      '/admin/ads/:id/active',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['ads'],
          summary: 'Deactivate or reactivate an ad',
          params: adIdParams,
          body: adActiveBody,
          response: { 200: adminAdDto },
        },
      },
      async (request) => ads.setActive(request.params.id, request.body.active),
    );

    app.get(
      '/ads/active',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['ads'],
          summary:
            'get-active-ads: the next active ad for a listener without premium, with its showing',
          response: { 200: activeAdResponse },
        },
      },
      async (request, reply) => {
        // Every answer is a new showing: never a cached one.
        reply.header('cache-control', 'no-store');
        return ads.next(requirePrincipal(request).userId);
      },
    );

    app.post(
      '/ads/impressions',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['ads'],
          summary: 'track-ad-impression: one per showing; a replay records nothing',
          body: adImpressionBody,
          response: { 200: adImpressionResult },
        },
      },
      async (request) => ads.recordImpression(requirePrincipal(request).userId, request.body),
    );
  };
