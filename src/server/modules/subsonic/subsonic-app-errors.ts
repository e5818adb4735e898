import { AppError, ErrorCode } from '../../../core/errors.ts';
import { SubsonicCode, SubsonicError } from './subsonic-method.ts';

/**
 * A feature module's refusal as a Subsonic error, with its message as the web shows it:
 * nothing there (or not the caller's to see) → 70, not the caller's to change → 50, any other
 * refusal (a form rule, a duplicate, a full playlist) → 0. Anything else is rethrown.
 */
export function subsonicErrorOf(error: unknown): never {
  if (error instanceof AppError) {
    switch (error.code) {
      case ErrorCode.notFound:
      case ErrorCode.songNotFound:
        throw new SubsonicError(SubsonicCode.notFound, error.message);
      case ErrorCode.forbidden:
        throw new SubsonicError(SubsonicCode.notAuthorized, error.message);
      case ErrorCode.validation:
      case ErrorCode.conflict:
        throw new SubsonicError(SubsonicCode.generic, error.message);
    }
  }
  throw error;
}

/** The call's answer, its AppError as a Subsonic error. */
export const viaModule = <T>(work: Promise<T>): Promise<T> => work.catch(subsonicErrorOf);
