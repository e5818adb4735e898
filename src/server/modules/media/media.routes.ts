import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  decideRange,
  ifRangeMatches,
  noneMatch,
  notModifiedSince,
} from '../../http/byte-ranges.ts';
import { bodyLengthHeaders, sendFileBody } from '../../http/send-file-body.ts';
import type { Bucket, Storage } from '../../storage/storage.ts';
import { fileHeaders, isSmallRange } from './media-headers.ts';
import type { MediaAccess, MediaOffload, MediaService } from './media.service.ts';

const PLACEHOLDER = '/placeholder.svg';

const params = z.object({ bucket: z.string(), key: z.string() });
// An owned key (`<owner>/<timestamp>.<ext>`, storage.ts ownedKey) spans two path segments.
const ownedParams = z.object({ bucket: z.string(), owner: z.string(), file: z.string() });

/** The key a request names, whichever of the two routes it came by. */
function keyOf(request: FastifyRequest): { rawBucket: string; key: string } {
  const p = request.params as Partial<z.infer<typeof params> & z.infer<typeof ownedParams>>;
  return { rawBucket: p.bucket ?? '', key: p.key ?? `${p.owner}/${p.file}` };
}
const querystring = z.object({
  e: z.string().optional().describe('Expiry of a signed URL (Unix seconds)'),
  s: z.string().optional().describe('Signature of a signed URL'),
});

/**
 * `GET|HEAD /media/:bucket/:key` with Range, conditional requests and immutable caching.
 * Audio answers only under a signed, unexpired URL (as the API hands out); covers and
 * avatars are public (media.service.ts says why). With MEDIA_OFFLOAD the bytes come from
 * nginx (X-Accel-Redirect) or the store (a redirect); this route only decides.
 */
export const mediaRoutes =
  ({
    storage,
    media,
    offload,
  }: {
    storage: Storage;
    media: MediaService;
    offload: MediaOffload;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    for (const [url, shape] of [
      ['/media/:bucket/:key', params],
      ['/media/:bucket/:owner/:file', ownedParams],
    ] as const) {
      app.route({
        method: ['GET', 'HEAD'],
        url,
        // helmet's page headers (CSP, frame options…) are for documents; media sets its own
        // (nosniff, CORP, a script-blocking CSP on SVG).
        config: { access: 'public', securityHeaders: false },
        schema: {
          tags: ['media'],
          summary: 'Stream a stored file (signed URL for audio; Range, If-None-Match, If-Range)',
          // Documentation only: the handler reads the raw values, so a malformed signature is
          // a 403 like any other bad signature, and validation costs nothing per request.
          params: shape,
          querystring,
        },
        // Checked by media.authorize, which is stricter than any schema (bucket list, key
        // pattern, signature); skipping the validators saves a good part of a Range request.
        validatorCompiler: () => () => true,
        handler: (request, reply) => serve(request, reply),
      });
    }

    const send = storedFileSender({ storage, media, offload });

    async function serve(request: FastifyRequest, reply: FastifyReply) {
      const { rawBucket, key } = keyOf(request);
      const access = media.authorize(rawBucket, key, request.query);
      const outcome = await send(request, reply, { bucket: access.bucket, key }, { access });
      if (outcome.kind === 'absent') return absent(access.bucket, reply);
      if (outcome.kind === 'unsatisfiable') {
        reply.header('content-range', `bytes */${outcome.size}`);
        throw new AppError(ErrorCode.rangeNotSatisfiable, 'Range not satisfiable', {
          size: outcome.size,
        });
      }
    }
  };

/** What sending a stored file came to: sent, or nothing sent and why. */
export type SendOutcome =
  { kind: 'sent' } | { kind: 'absent' } | { kind: 'unsatisfiable'; size: number };

export type SendOptions = {
  /** The verified access (its expiry bounds Cache-Control); public media has none. */
  access: MediaAccess;
  /** Cache-Control instead of the access's. */
  cacheControl?: string;
  /** Headers sent besides the file's (CORS, Content-Disposition); the file's win. */
  headers?: OutgoingHttpHeaders;
};

/**
 * Sends a stored file's bytes as the media route does (Range, If-None-Match, If-Range,
 * immutable caching, MEDIA_OFFLOAD): the one path every stored file reaches a client by, the
 * web player's /media URLs and Subsonic's stream alike. Nothing is sent when the file is
 * missing or the range unsatisfiable: the caller answers those in its own protocol.
 */
export function storedFileSender({
  storage,
  media,
  offload,
}: {
  storage: Storage;
  media: MediaService;
  offload: MediaOffload;
}) {
  return async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    { bucket, key }: { bucket: Bucket; key: string },
    options: SendOptions,
  ): Promise<SendOutcome> {
    const { access } = options;
    const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
    const disposition = options.headers?.['content-disposition'];

    if (offload === 'redirect') {
      // No stat: the store answers for existence, validators and ranges at the target.
      const target = await media.redirect(bucket, key, access, method, {
        contentDisposition: typeof disposition === 'string' ? disposition : undefined,
      });
      for (const [name, value] of Object.entries(options.headers ?? {}))
        if (value !== undefined) reply.header(name, value);
      reply
        .code(302)
        .header('location', target.location)
        .header('cache-control', target.cacheControl)
        .send();
      return SENT;
    }

    const object = await storage.stat(bucket, key);
    if (!object) return { kind: 'absent' };

    const headers: OutgoingHttpHeaders = {
      ...options.headers,
      ...fileHeaders(key, object, options.cacheControl ?? media.cacheControl(access)),
    };

    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const ifNoneMatch = header('if-none-match');
    const notModified =
      ifNoneMatch !== undefined
        ? noneMatch(ifNoneMatch, object.etag)
        : notModifiedSince(header('if-modified-since'), object.lastModified);
    if (notModified) {
      for (const [name, value] of Object.entries(options.headers ?? {}))
        if (value !== undefined && name !== 'content-disposition') reply.header(name, value);
      reply
        .code(304)
        .header('etag', object.etag)
        .header('last-modified', headers['last-modified'])
        .header('cache-control', headers['cache-control'])
        .send();
      return SENT;
    }

    if (offload === 'x-accel') {
      // nginx sends the file from its internal location, with Range, If-Range, 416 and
      // Accept-Ranges of its own; it keeps Content-Type and Cache-Control from here, and
      // its ETag and Last-Modified equal ours (same file, same format). The site config
      // re-adds the other headers (docs/deploy/nginx/canto.conf).
      delete headers['accept-ranges'];
      headers['x-accel-redirect'] = media.xAccelUri(bucket, key);
      headers['content-length'] = 0;
      reply.hijack();
      reply.raw.writeHead(200, headers).end();
      return SENT;
    }

    // Range is defined for GET only (RFC 9110 §14.2); HEAD describes the whole file.
    const rangeHeader =
      method === 'GET' && ifRangeMatches(header('if-range'), object.etag, object.lastModified)
        ? header('range')
        : undefined;
    const range = decideRange(rangeHeader, object.size);
    if (range.kind === 'unsatisfiable') return { kind: 'unsatisfiable', size: object.size };

    const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
    const status = bodyLengthHeaders(headers, part, object.size);
    // A seek's range in one buffer (a plain one usually comes by the media lane instead).
    if (method === 'GET' && part && storage.readSmall && isSmallRange(part)) {
      const bytes = await storage.readSmall(bucket, key, part);
      reply.hijack();
      reply.raw.writeHead(status, headers).end(bytes);
      return SENT;
    }
    // Opened before any success header is sent, so a failure here is a plain error response.
    const body = method === 'GET' ? await storage.read(bucket, key, part) : undefined;
    sendFileBody(request, reply, status, headers, body);
    return SENT;
  };
}

const SENT: SendOutcome = { kind: 'sent' };

function absent(bucket: Bucket, reply: FastifyReply) {
  // A cover whose file is gone still renders: the web app ships a placeholder image.
  if (bucket === 'cover-art') {
    return reply
      .code(302)
      .header('location', PLACEHOLDER)
      .header('cache-control', 'no-cache')
      .send();
  }
  throw new AppError(ErrorCode.notFound, 'File not found');
}
