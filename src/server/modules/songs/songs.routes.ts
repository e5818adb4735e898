import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  browseResponse,
  homeResponse,
  songDto,
  songEditBody,
  songIdParams,
  songList,
  songListQuery,
} from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
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

    app.post(
      '/songs',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary: 'Upload a song (audio ≤ 100 MB, optional cover ≤ 5 MB) in one request',
          ...songUploadForm.doc,
          response: { 201: songDto },
        },
      },
      async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const song = await withUpload(request, songUploadForm, { tempDir }, (upload) =>
          songs.upload(userId, upload),
        );
        return reply.status(201).send(song);
      },
    );

    app.get(
      '/songs/home',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'Recent and popular tracks (6 each)',
          response: { 200: homeResponse },
        },
      },
      async () => songs.home(clock.now()),
    );

    app.get(
      '/songs/browse',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'Trending now and new releases (6 each)',
          response: { 200: browseResponse },
        },
      },
      async () => songs.browse(),
    );

    app.get(
      '/songs',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'Newest songs, optionally of one genre (case-insensitive)',
          querystring: songListQuery,
          response: { 200: songList },
        },
      },
      async (request) => ({ songs: await songs.list(request.query) }),
    );

    app.get(
      '/songs/:id',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'One song',
          params: songIdParams,
          response: { 200: songDto },
        },
      },
      async (request) => songs.get(request.params.id),
    );

    app.patch(
      '/songs/:id',
      {
        // The artist role at the edge (revoking it ends these rights), ownership in the service.
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary: "Edit a song's title or genre (its artist only)",
          params: songIdParams,
          body: songEditBody,
          response: { 200: songDto },
        },
      },
      async (request) =>
        songs.edit(requirePrincipal(request).userId, request.params.id, request.body),
    );

    app.put(
      '/songs/:id/cover',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary: "Replace a song's cover art (its artist only)",
          ...songCoverForm.doc,
          params: songIdParams,
          response: { 200: songDto },
        },
      },
      async (request) =>
        withUpload(request, songCoverForm, {}, (upload) =>
          songs.replaceCover(requirePrincipal(request).userId, request.params.id, upload),
        ),
    );

    app.post(
      '/songs/:id/reprocess',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary:
            "Process a song's media again after it failed (its artist only; 409 unless failed)",
          params: songIdParams,
          response: { 202: songDto },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await songs.reprocess(requirePrincipal(request).userId, request.params.id)),
    );

    app.delete(
      '/songs/:id',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary: 'Delete a song and its files (its artist only)',
          params: songIdParams,
        },
      },
      async (request, reply) => {
        await songs.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );
  };
