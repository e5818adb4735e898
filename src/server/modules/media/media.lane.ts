import type { ServerResponse } from 'node:http';
import { AppError } from '../../../core/errors.ts';
import { decideRange } from '../../http/byte-ranges.ts';
import type { RequestLane } from '../../http/request-lane.ts';
import { bodyLengthHeaders } from '../../http/send-file-body.ts';
import type { Bucket, Storage } from '../../storage/storage.ts';
import { fileHeaders, isSmallRange } from './media-headers.ts';
import type { MediaAccess, MediaService } from './media.service.ts';

const PREFIX = '/media/';
// One range, first and maybe last byte: what players send when they seek.
const SIMPLE_RANGE = /^bytes=\d{1,15}-\d{0,15}$/;
// Never in a key or a signed URL's query; where they appear, Fastify's own URL and query
// parsing (decoding, fragments, `+`) decides, so the lane leaves the request to it.
const UNPLAIN = /[%#;+]/;

/**
 * The media route's answer to a plain seek, sent before Fastify sees the request
 * (docs/decisions/0010): Fastify's hooks, cookie parsing and routing cost as much as the
 * range itself. It answers only a GET of a signed URL that `media.authorize` accepts, with
 * one small satisfiable Range and no validators, of a file that exists; everything else
 * (and any refusal) goes to Fastify, which answers it as always. So the lane's answers are
 * the route's: the same headers (media-headers.ts) and the same bytes (storage.readSmall).
 *
 * The lane returns false at once when the request is not its own, else a promise of whether
 * it answered. None for a store without readSmall; only for MEDIA_OFFLOAD=none (media.module.ts).
 */
export function mediaLane({
  storage,
  media,
}: {
  storage: Storage;
  media: MediaService;
}): RequestLane | undefined {
  if (!storage.readSmall) return undefined;
  const readSmall = storage.readSmall.bind(storage);
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) return false;
    const h = req.headers;
    const range = h.range;
    if (range === undefined || !SIMPLE_RANGE.test(range)) return false;
    if (h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined) return false;
    if (h['if-range'] !== undefined || UNPLAIN.test(url)) return false;
    const target = targetOf(url);
    if (!target) return false;
    let access;
    try {
      access = media.authorize(target.bucket, target.key, target.query);
    } catch (error) {
      // Fastify answers the refusal in the API's shape (404, 403 with its reason).
      if (error instanceof AppError) return false;
      throw error;
    }
    if (access.expires === undefined) return false;
    return answer(res, access, target.key, range);
  };

  async function answer(
    res: ServerResponse,
    access: MediaAccess & { bucket: Bucket },
    key: string,
    rangeHeader: string,
  ): Promise<boolean> {
    const { bucket } = access;
    const object = await storage.stat(bucket, key);
    if (!object) return false;
    const range = decideRange(rangeHeader, object.size);
    if (range.kind !== 'partial' || !isSmallRange(range)) return false;
    const part = { start: range.start, end: range.end };
    const headers = fileHeaders(key, object, media.cacheControl(access));
    const status = bodyLengthHeaders(headers, part, object.size);
    let bytes: Buffer;
    try {
      bytes = await readSmall(bucket, key, part);
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
    res.writeHead(status, headers).end(bytes);
    return true;
  }
}

/** Bucket, key and the signature's fields of `/media/<bucket>/<key>?…`; a field twice: none. */
function targetOf(
  url: string,
): { bucket: string; key: string; query: { e?: string; s?: string } } | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const slash = path.indexOf('/', PREFIX.length);
  if (slash < 0) return undefined;
  const query: { e?: string; s?: string } = {};
  if (q >= 0) {
    for (const pair of url.slice(q + 1).split('&')) {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (name !== 'e' && name !== 's') continue;
      // Fastify makes a repeated field an array, which authorize refuses: let it.
      if (query[name] !== undefined) return undefined;
      query[name] = eq < 0 ? '' : pair.slice(eq + 1);
    }
  }
  return { bucket: path.slice(PREFIX.length, slash), key: path.slice(slash + 1), query };
}
