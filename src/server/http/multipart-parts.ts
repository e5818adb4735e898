import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { bodyEndedEarly } from './http-errors.ts';
import { assertCleanText } from './text-guard.ts';

/*
 * Multipart uploads: the request's parts one at a time, in the order they arrive, so files
 * are streamed, never buffered by the HTTP layer. The upload forms read them
 * (media/upload-form.ts).
 */

/** One part of a multipart body, independent of the HTTP library that parsed it. */
export type IncomingPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | {
      kind: 'file';
      name: string;
      filename: string;
      /** The type the client declared (a browser's guess from the file name); never trusted. */
      mimeType: string;
      stream: Readable;
      truncated: () => boolean;
    };

/** @fastify/multipart's limits (busboy's), per route: the parser's own ceilings. */
export type MultipartLimits = {
  fileSize: number;
  files: number;
  fields: number;
  parts: number;
  fieldSize: number;
  fieldNameSize: number;
  headerPairs: number;
};

/** The multipart parts of a request, in the service's terms. */
export async function* partsOf(
  request: FastifyRequest,
  limits: MultipartLimits,
): AsyncGenerator<IncomingPart> {
  if (!request.isMultipart()) {
    throw new AppError(ErrorCode.unsupportedMedia, 'Send the upload as multipart/form-data');
  }
  // The client may have hung up during the access checks: a parser started on its dead body
  // would wait forever.
  if (request.raw.readableAborted) throw bodyEndedEarly();
  for await (const part of request.parts({ limits })) {
    if (part.type === 'field') {
      // The text guard sees JSON bodies only; multipart fields are checked as they arrive.
      assertCleanText({ [part.fieldname]: part.value }, 'body');
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
        mimeType: part.mimetype ?? '',
        stream,
        truncated: () => stream.truncated,
      };
    }
  }
}
