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
import { requirePrincipal } from '../../http/access-policy.ts';
import { acceptUploads, withUpload } from '../../media/upload-form.ts';
import { adEditForm, adForm } from './ads.forms.ts';
import type { AdsService } from './ads.service.ts';

export const adsRoutes =
  ({
    ads,
    tempDir,
  }: {
    ads: AdsService;
    /** Where an ad's audio waits while it is checked: `${DATA_DIR}/tmp`. */
    tempDir: string;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only the upload routes take multipart bodies.
    await acceptUploads(app, adForm);

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
          ...adForm.doc,
          response: { 201: adminAdDto },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await withUpload(request, adForm, { tempDir }, (upload) => ads.create(upload))),
    );

    app.patch(
      '/admin/ads/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['ads'],
          summary: 'Edit an ad; a new image or audio replaces the old',
          ...adEditForm.doc,
          params: adIdParams,
          response: { 200: adminAdDto },
        },
      },
      async (request) =>
        withUpload(request, adEditForm, { tempDir }, (upload) =>
          ads.update(request.params.id, upload),
        ),
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
