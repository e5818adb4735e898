import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adsApi } from '../../../contracts/api/ads.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
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

    contractRoute(app, adsApi.all, {
      config: { access: 'admin' },
      schema: { tags: ['ads'], summary: 'The ad inventory: every ad, newest first' },
      handler: async () => ({ items: await ads.all() }),
    });

    contractRoute(app, adsApi.create, {
      config: { access: 'admin' },
      schema: {
        tags: ['ads'],
        summary: 'Create an ad (active at once); its audio goes through the media pipeline',
        ...adForm.doc,
      },
      handler: async (request, reply) =>
        reply
          .status(201)
          .send(await withUpload(request, adForm, { tempDir }, (upload) => ads.create(upload))),
    });

    contractRoute(app, adsApi.update, {
      config: { access: 'admin' },
      schema: {
        tags: ['ads'],
        summary: 'Edit an ad; a new image or audio replaces the old',
        ...adEditForm.doc,
      },
      handler: async (request) =>
        withUpload(request, adEditForm, { tempDir }, (upload) =>
          ads.update(request.params.id, upload),
        ),
    });

    contractRoute(app, adsApi.setActive, {
      config: { access: 'admin' },
      schema: { tags: ['ads'], summary: 'Deactivate or reactivate an ad' },
      handler: async (request) => ads.setActive(request.params.id, request.body.active),
    });

    contractRoute(app, adsApi.issueShowing, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['ads'],
        summary:
          'get-active-ads: a new showing of the next active ad for a listener without premium, within the frequency cap',
      },
      handler: async (request, reply) => {
        // Every answer is a new showing: never a cached one.
        reply.header('cache-control', 'no-store');
        return ads.issueShowing(requirePrincipal(request).userId);
      },
    });

    contractRoute(app, adsApi.recordImpression, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['ads'],
        summary:
          'track-ad-impression: once per showing issued to this listener, after the ad has played; a replay records nothing',
      },
      handler: async (request) =>
        ads.recordImpression(requirePrincipal(request).userId, request.body),
    });
  };
