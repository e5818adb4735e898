import type { FastifyInstance } from 'fastify';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { textMessages } from '../../core/validation/text.check.ts';

export const NUL_MESSAGE = textMessages.nul;

/**
 * Where a string holding U+0000 sits in a parsed value (`''` for the value itself,
 * `a/0/b` inside it), keys included; null when there is none. Iterative, so a deeply nested
 * body cannot overflow the stack.
 */
export function nulPathOf(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return at;
    } else if (v && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const childAt = at ? `${at}/${key}` : key;
        if (key.includes('\0')) return childAt;
        stack.push([child, childAt]);
      }
    }
  }
  return null;
}

/** Throws 400 validation_failed, naming the field, when a request-supplied string holds U+0000. */
export function assertNoNul(value: unknown, context: string): void {
  const at = nulPathOf(value);
  if (at === null) return;
  throw new AppError(ErrorCode.validation, NUL_MESSAGE, { field: at || undefined, context });
}

/**
 * PostgreSQL text cannot hold U+0000 (22021 / 22P05), so a NUL that reached a query would be a
 * 500. Every route's validated path parameters, query and body are checked once here, after
 * its schema (whose own messages come first) and before its handler; multipart fields, read
 * in the handler, are checked where they are parsed (assertNoNul).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    assertNoNul(request.params, 'params');
    assertNoNul(request.query, 'querystring');
    assertNoNul(request.body, 'body');
  });
}
