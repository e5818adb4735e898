import type { OutgoingHttpHeaders } from 'node:http';
import type { ByteRange, StoredObject } from '../../storage/storage.ts';
import { contentTypeOfKey } from '../../storage/storage.ts';

// An SVG opened directly must not run script or load anything; inline styles are harmless.
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";
// Ranges up to this size are read into one buffer and sent with the headers.
const SMALL_RANGE = 256 * 1024;

/** A seek's range, sent from one buffer: no stream to set up, pipe and tear down. */
export const isSmallRange = (part: ByteRange) => part.end - part.start < SMALL_RANGE;

/**
 * The headers of a verified answer with a stored file's bytes, before its length: the one
 * list the media route and the media lane (media.lane.ts) both send.
 */
export function fileHeaders(
  key: string,
  object: StoredObject,
  cacheControl: string,
): OutgoingHttpHeaders {
  const contentType = contentTypeOfKey(key);
  const headers: OutgoingHttpHeaders = {
    'content-type': contentType,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
    'cache-control': cacheControl,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    // Media may be embedded by other origins (helmet defaults this to same-origin).
    'cross-origin-resource-policy': 'cross-origin',
  };
  if (contentType === 'image/svg+xml') headers['content-security-policy'] = SVG_CSP;
  return headers;
}
