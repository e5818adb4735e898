import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { songsApi } from '../../../contracts/api/songs.api.ts';
import type { Clock } from '../../../core/clock.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { acceptUploads, withUpload } from '../../media/upload-form.ts';
import { songCoverForm, songUploadForm } from './songs.forms.ts';
import type { SongsService } from './songs.service.ts';

export const songsRoutes =
  ({
    songs,
    clock,
    tempDir,
  }: {
    songs: SongsService;
    clock: Clock;
    /** Where an upload's audio waits while it is checked: `${DATA_DIR}/tmp`. */
    tempDir: string;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only these routes take multipart bodies.
    await acceptUploads(app, songUploadForm);

    contractRoute(app, songsApi.upload, {
      config: { access: 'artist' },
      schema: {
        tags: ['songs'],
        summary: 'Upload a song (audio ≤ 100 MB, optional cover ≤ 5 MB) in one request',
        ...songUploadForm.doc,
      },
      handler: async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const song = await withUpload(request, songUploadForm, { tempDir }, (upload) =>
          songs.upload(userId, upload),
        );
        return reply.status(201).send(song);
      },
    });

    contractRoute(app, songsApi.home, {
      config: { access: 'signed-in' },
      schema: { tags: ['songs'], summary: 'Recent and popular tracks (6 each)' },
      handler: async () => songs.home(clock.now()),
    });

    contractRoute(app, songsApi.browse, {
      config: { access: 'signed-in' },
      schema: { tags: ['songs'], summary: 'Trending now and new releases (6 each)' },
      handler: async () => songs.browse(),
    });

    contractRoute(app, songsApi.list, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['songs'],
        summary: 'Newest songs, optionally of one genre (case-insensitive)',
      },
      handler: async (request) => ({ songs: await songs.list(request.query) }),
    });

    contractRoute(app, songsApi.get, {
      config: { access: 'signed-in' },
      schema: { tags: ['songs'], summary: 'One song' },
      handler: async (request) => songs.get(request.params.id),
    });

    contractRoute(app, songsApi.lyrics, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['songs'],
        summary: "A song's lyrics: timed lines (LRC) or plain ones; 404 when it has none",
      },
      handler: async (request) => songs.lyrics(request.params.id),
    });

    contractRoute(app, songsApi.edit, {
      // The artist role at the edge (revoking it ends these rights), ownership in the service.
      config: { access: 'artist' },
      schema: {
        tags: ['songs'],
        summary: "Edit a song's title, genre or lyrics (its artist only)",
      },
      handler: async (request) =>
        songs.edit(requirePrincipal(request).userId, request.params.id, request.body),
    });

    contractRoute(app, songsApi.replaceCover, {
      config: { access: 'artist' },
      schema: {
        tags: ['songs'],
        summary: "Replace a song's cover art (its artist only)",
        ...songCoverForm.doc,
      },
      handler: async (request) =>
        withUpload(request, songCoverForm, {}, (upload) =>
          songs.replaceCover(requirePrincipal(request).userId, request.params.id, upload),
        ),
    });

    contractRoute(app, songsApi.reprocess, {
      config: { access: 'artist' },
      schema: {
        tags: ['songs'],
        summary:
          "Process a song's media again after it failed (its artist only; 409 unless failed)",
      },
      handler: async (request, reply) =>
        reply
          .status(202)
          .send(await songs.reprocess(requirePrincipal(request).userId, request.params.id)),
    });

    contractRoute(app, songsApi.remove, {
      config: { access: 'artist' },
      schema: { tags: ['songs'], summary: 'Delete a song and its files (its artist only)' },
      handler: async (request, reply) => {
        await songs.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });
  };
