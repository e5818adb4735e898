import type { FastifyInstance } from 'fastify';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { hasNul, isWellFormed, textMessages } from '../../core/validation/text.check.ts';

export const NUL_MESSAGE = textMessages.nul;
export const MALFORMED_MESSAGE = textMessages.malformed;

/** What the edge refuses in request text: U+0000, or a lone UTF-16 surrogate. */
const faultOf = (text: string): string | null => {
  if (hasNul(text)) return NUL_MESSAGE;
  if (!isWellFormed(text)) return MALFORMED_MESSAGE;
  return null;
};

/**
 * The first string of a parsed value that the edge refuses, keys included: where it sits
 * (`''` for the value itself, `a/0/b` inside it) and why; null when there is none.
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function textFaultOf(value: unknown): { at: string; message: string } | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      const message = faultOf(v);
      if (message) return { at, message };
    } else if (v && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const childAt = at ? `${at}/${key}` : key;
        const message = faultOf(key);
        if (message) return { at: childAt, message };
        stack.push([child, childAt]);
      }
    }
  }
  return null;
}

/**
 * Throws 400 validation_failed, naming the field, when a request-supplied string holds U+0000
 * or is not well-formed Unicode.
 */
export function assertCleanText(value: unknown, context: string): void {
  const fault = textFaultOf(value);
  if (fault === null) return;
  throw new AppError(ErrorCode.validation, fault.message, {
    field: fault.at || undefined,
    context,
  });
}

/**
 * One rule for all request text. PostgreSQL text cannot hold U+0000 (22021 / 22P05), and a
 * lone surrogate has no UTF-8 form (encodeURIComponent throws URIError, the driver cannot
 * encode it): either would be a 500 wherever it reached. Every route's validated path
 * parameters, query and body are checked once here, after its schema (whose own messages
 * come first) and before its handler; multipart fields, read in the handler, are checked
 * where they are parsed (assertCleanText).
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    assertCleanText(request.params, 'params');
    assertCleanText(request.query, 'querystring');
    assertCleanText(request.body, 'body');
  });
}
