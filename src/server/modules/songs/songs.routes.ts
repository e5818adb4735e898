import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  browseResponse,
  homeResponse,
  searchQuery,
  searchResponse,
  songDto,
  songEditBody,
  songIdParams,
  songList,
  songListQuery,
} from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { songLimits } from '../../../core/validation/song.rules.ts';
import type { Clock } from '../../../core/clock.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { assertNoNul } from '../../http/nul-guard.ts';
import type { IncomingPart, SongsService } from './songs.service.ts';

// The parser's own ceilings; the service enforces the spec limits per part while streaming.
// Audio may reach 100 MB + 1 byte here so the service sees the byte that breaks the limit.
// With ≤ 2 files, ≤ 4 small fields and the cover cut at 5 MB by the service, a request body
// never gets read past ~106 MB.
const multipartLimits = {
  fileSize: songLimits.audioMaxBytes + 1,
  files: 2,
  fields: 4,
  parts: 6,
  fieldSize: 4 * 1024,
  fieldNameSize: 64,
  headerPairs: 20,
};

/** The multipart parts of a request, in the service's terms. */
async function* partsOf(request: FastifyRequest): AsyncGenerator<IncomingPart> {
  if (!request.isMultipart()) {
    throw new AppError(ErrorCode.unsupportedMedia, 'Send the upload as multipart/form-data');
  }
  for await (const part of request.parts({ limits: multipartLimits })) {
    if (part.type === 'field') {
      // The NUL guard sees JSON bodies only; multipart fields are checked as they arrive.
      assertNoNul({ [part.fieldname]: part.value }, 'body');
      yield {
        kind: 'field',
        name: part.fieldname,
        value: String(part.value ?? ''),
        truncated: part.valueTruncated,
      };
    } else {
      const stream = part.file;
      yield {
        kind: 'file',
        name: part.fieldname,
        filename: part.filename,
        stream,
        truncated: () => stream.truncated,
      };
    }
  }
}

const multipartDoc = (fields: Record<string, string>) => ({
  consumes: ['multipart/form-data'],
  description: `multipart/form-data fields: ${Object.entries(fields)
    .map(([k, v]) => `\`${k}\` (${v})`)
    .join(', ')}`,
});

export const songsRoutes =
  ({ songs, clock }: { songs: SongsService; clock: Clock }): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered here, not app-wide: only these routes take multipart bodies.
    await app.register(multipart, { limits: multipartLimits, throwFileSizeLimit: true });

    app.post(
      '/songs',
      {
        config: { access: 'artist' },
        schema: {
          tags: ['songs'],
          summary: 'Upload a song (audio ≤ 100 MB, optional cover ≤ 5 MB) in one request',
          ...multipartDoc({
            file: 'audio: MP3, WAV, FLAC, Ogg or M4A',
            cover: 'optional image',
            title: 'optional, ≤ 200; defaults to the tag title, then the file name',
            genre: 'optional, ≤ 100',
          }),
          response: { 201: songDto },
        },
      },
      async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const song = await songs.upload(userId, partsOf(request));
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
        config: { access: 'owner' },
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
        config: { access: 'owner' },
        schema: {
          tags: ['songs'],
          summary: "Replace a song's cover art (its artist only)",
          ...multipartDoc({ cover: 'image ≤ 5 MB' }),
          params: songIdParams,
          response: { 200: songDto },
        },
      },
      async (request) =>
        songs.replaceCover(requirePrincipal(request).userId, request.params.id, partsOf(request)),
    );

    app.delete(
      '/songs/:id',
      {
        config: { access: 'owner' },
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

    app.get(
      '/search',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'Search songs (title or genre) or podcasts (title or description); limit 20',
          querystring: searchQuery,
          response: { 200: searchResponse },
        },
      },
      async (request) => songs.search(request.query, clock.now()),
    );
  };
