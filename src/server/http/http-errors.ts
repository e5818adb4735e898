import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { AppError, ErrorCode } from '../../core/errors.ts';

// The JSON API's one mapping from domain codes to HTTP statuses.
const statusOf: Record<ErrorCode, number> = {
  [ErrorCode.validation]: 400,
  [ErrorCode.unauthenticated]: 401,
  [ErrorCode.invalidCredentials]: 400,
  [ErrorCode.sessionExpired]: 401,
  [ErrorCode.refreshReused]: 401,
  [ErrorCode.mfaRequired]: 403,
  [ErrorCode.mfaInvalid]: 422,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.notFound]: 404,
  [ErrorCode.conflict]: 409,
  [ErrorCode.rateLimited]: 429,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.unsupportedMedia]: 415,
  [ErrorCode.rangeNotSatisfiable]: 416,
  [ErrorCode.notConfigured]: 501,
  [ErrorCode.internal]: 500,
};

export function httpStatusOf(code: ErrorCode): number {
  return statusOf[code];
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
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
    const fe = error as FastifyError;
    const status =
      fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
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
    return reply.status(status).send({ error: { code, message: fe.message } });
  });
}
