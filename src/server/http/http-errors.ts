import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { isDatabaseUnavailable } from '../db/database-outage.ts';

export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable, try again shortly';

// The JSON API's one mapping from domain codes to HTTP statuses.
const statusOf: Record<ErrorCode, number> = {
  [ErrorCode.validation]: 400,
  [ErrorCode.unauthenticated]: 401,
  [ErrorCode.invalidCredentials]: 400,
  [ErrorCode.sessionExpired]: 401,
  [ErrorCode.refreshReused]: 401,
  [ErrorCode.insufficientAal]: 403,
  [ErrorCode.mfaInvalid]: 422,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.notFound]: 404,
  [ErrorCode.songNotFound]: 404,
  [ErrorCode.playNotFound]: 404,
  [ErrorCode.conflict]: 409,
  [ErrorCode.rateLimited]: 429,
  [ErrorCode.adShowingNotFound]: 404,
  [ErrorCode.adShowingExpired]: 410,
  [ErrorCode.adShowingTooEarly]: 409,
  [ErrorCode.adInactive]: 409,
  [ErrorCode.adListenerPremium]: 403,
  [ErrorCode.insufficientBalance]: 422,
  [ErrorCode.withdrawalNotPending]: 409,
  [ErrorCode.idempotencyKeyReused]: 422,
  [ErrorCode.revenueRunInProgress]: 409,
  [ErrorCode.monthNotStarted]: 422,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.unsupportedMedia]: 415,
  [ErrorCode.unprocessableMedia]: 422,
  [ErrorCode.rangeNotSatisfiable]: 416,
  [ErrorCode.notConfigured]: 501,
  [ErrorCode.formatNotImplemented]: 501,
  [ErrorCode.aiGenerationFailed]: 502,
  [ErrorCode.serviceUnavailable]: 503,
  [ErrorCode.internal]: 500,
};

/**
 * The multipart parser (@fastify/busboy) rejects a malformed body with plain Errors, no code
 * or status: no boundary, an empty or over-long one (its stream search refuses the needle), a
 * body that ends inside a part. They reach the handler from `request.parts()` or from a file
 * stream the service is reading.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|The needle cannot .+)$/;

/** @fastify/multipart's own errors carry a status; these say what went wrong more plainly. */
const multipartMessages: Record<string, string> = {
  FST_PARTS_LIMIT: 'Too many parts in the multipart body',
  FST_FILES_LIMIT: 'Too many files in the multipart body',
  FST_FIELDS_LIMIT: 'Too many fields in the multipart body',
  FST_PROTO_VIOLATION: 'A multipart field name is not allowed',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the body as multipart/form-data',
};

/**
 * The client stopped sending before its body ended: it hung up (Node destroys the request with
 * ECONNRESET "aborted"), or Node's parser refused the rest of the body (answerClientError has
 * already answered). Nobody waits for the answer, so this is no server error.
 */
function bodyCutOff(request: FastifyRequest, error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'FST_MP_PREMATURE_CLOSE' || request.raw.readableAborted;
}

/** The answer to a request whose body stopped short; its client is usually gone. */
export const bodyEndedEarly = () =>
  new AppError(ErrorCode.validation, 'The request body ended early');

export function registerErrorHandler(
  app: FastifyInstance,
  /** Told of each error that says the database is unreachable (it logs an outage once). */
  onDatabaseUnavailable: (error: unknown) => void = () => {},
) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    // First: whatever failed once the client's body was cut off is only that.
    if (bodyCutOff(request, error)) {
      request.log.info({ reason: error.message }, 'client went away before its request body ended');
      const { code, message } = bodyEndedEarly();
      return reply.status(400).send({ error: { code, message } });
    }
    if (error instanceof AppError) {
      const status = statusOf[error.code];
      if (status === 429 && error.details?.retryAfter)
        reply.header('retry-after', String(error.details.retryAfter));
      return reply
        .status(status)
        .send({ error: { code: error.code, message: error.message, details: error.details } });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The first issue's message is the one the spec shows (e.g. 'Invalid email address').
      const first = error.validation[0];
      return reply.status(400).send({
        error: {
          code: ErrorCode.validation,
          message: first?.message ?? 'Invalid request',
          details: {
            field: first?.instancePath.replace(/^\//, '') || undefined,
            context: error.validationContext,
          },
        },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ error: { code: ErrorCode.internal, message: 'Internal server error' } });
    }
    if (MALFORMED_MULTIPART.test(error.message) && !(error as FastifyError).code) {
      return reply
        .status(400)
        .send({ error: { code: ErrorCode.validation, message: 'Malformed multipart body' } });
    }
    if (isDatabaseUnavailable(error)) {
      // Logged once per outage (db/database-outage.ts), not once per request.
      onDatabaseUnavailable(error);
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({
          error: { code: ErrorCode.serviceUnavailable, message: SERVICE_UNAVAILABLE },
        });
    }
    const fe = error as FastifyError;
    // @fastify/multipart answers "not multipart" with 406; for the API it is the wrong media type.
    const given = fe.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ? 415 : fe.statusCode;
    const status = given && given >= 400 && given < 500 ? given : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .status(500)
        .send({ error: { code: ErrorCode.internal, message: 'Internal server error' } });
    }
    const code =
      status === 429
        ? ErrorCode.rateLimited
        : status === 413
          ? ErrorCode.payloadTooLarge
          : status === 415
            ? ErrorCode.unsupportedMedia
            : status === 404
              ? ErrorCode.notFound
              : ErrorCode.validation;
    const message = (fe.code && multipartMessages[fe.code]) || fe.message;
    return reply.status(status).send({ error: { code, message } });
  });
}

/**
 * Fastify's `frameworkErrors` option: the router's own refusals (a URL that does not decode,
 * a path parameter over maxParamLength) happen before any route or error handler, and would
 * otherwise answer in Fastify's shape with the raw URL echoed back.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, code, message] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, ErrorCode.validation, 'Malformed URL']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, ErrorCode.validation, 'A URL path segment is too long']
        : [500, ErrorCode.internal, 'Internal server error'];
  if (status === 500) request.log.error({ err: error }, 'router error');
  void reply.status(status).send({ error: { code, message } });
}

/** Node's parser refusals that have a status of their own; any other is a 400. */
const clientErrors: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [431, ErrorCode.validation, 'Request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, ErrorCode.validation, 'The request took too long to arrive'],
};

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (a request line that is
 * not HTTP, a NUL in a header, headers over the size limit, broken chunked framing mid-body).
 * No route runs, so this answers on the socket itself, in the API's shape; a client's
 * malformed request is no server error, so it is logged at debug only.
 */
export function answerClientError(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientErrors[error.code ?? ''] ?? [
    400,
    ErrorCode.validation,
    'Malformed HTTP request',
  ];
  this.log.debug({ err: error }, 'client error');
  // Node's own rule: never write into a response that has already started on this socket.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: { code, message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
