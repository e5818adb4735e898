import type { z } from 'zod';
import { AppError, ErrorCode } from '../../core/errors.ts';

/*
 * Text fields of a multipart form (podcast shows and episodes, ads), collected from the
 * parts and checked by the contract's schema, so a form and a JSON body are judged alike.
 * Unknown and repeated fields are refused: an owner or id field sent by a client is never
 * stored.
 */

export const validation = (message: string, field?: string) =>
  new AppError(ErrorCode.validation, message, field ? { field } : undefined);

/** Keeps one text field; a second of the same name is refused, not silently preferred. */
export function keepField(fields: Record<string, string>, name: string, value: string): void {
  const shown = name.slice(0, 50);
  if (Object.hasOwn(fields, name))
    throw validation(`The field "${shown}" was sent more than once`, shown);
  fields[name] = value;
}

/** The fields as `schema` reads them, or the first issue as a 400 naming its field. */
export function parseFields<S extends z.ZodType>(
  schema: S,
  fields: Record<string, string>,
): z.output<S> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const name = String(issue.keys[0] ?? '').slice(0, 50);
    throw validation(`Unknown field "${name}"`, name);
  }
  throw validation(issue.message, issue.path.map(String).join('.') || undefined);
}

/** A file part the form does not have: its bytes are drained, then it is refused. */
export function unexpectedFile(part: { name: string; stream: { resume(): unknown } }): AppError {
  part.stream.resume();
  const name = part.name.slice(0, 50);
  return validation(`Unexpected file field "${name}"`, name);
}
