import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../storage/storage.ts';

/**
 * Sets Content-Length (and Content-Range for a part) on `headers` and answers the status:
 * 206 for `part`, 200 for the whole `size` bytes.
 */
export function bodyLengthHeaders(
  headers: OutgoingHttpHeaders,
  part: ByteRange | undefined,
  size: number,
): 200 | 206 {
  if (!part) {
    headers['content-length'] = size;
    return 200;
  }
  headers['content-range'] = `bytes ${part.start}-${part.end}/${size}`;
  headers['content-length'] = part.end - part.start + 1;
  return 206;
}

/**
 * Writes a file's response directly: Fastify's send path (onSend hooks, stream wrapping) cost
 * as much as the file read for a 64 KB range. Fastify still logs the request and runs
 * onResponse hooks when the response finishes. No body (HEAD) ends it after the headers.
 */
export function sendFileBody(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Readable | null | undefined,
): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(status, headers);
  if (!body) return void res.end();
  // pipe, not pipeline(): pipeline allocates and aborts an AbortController per call, a tenth
  // of a Range request's time. A read error cuts the response; a client that goes away
  // (normal for players) stops the read and releases the file.
  body.once('error', (error) => {
    request.log.warn({ err: error, url: request.url }, 'file stream failed');
    res.destroy(error);
  });
  res.once('close', () => body.destroy());
  body.pipe(res);
}
