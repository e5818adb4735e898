import { AppError, ErrorCode } from '../../../core/errors.ts';
import { adMessages } from '../../../core/validation/ad.rules.ts';

/*
 * An ad form's image: the cover checks' errors told in the ad form's words. Its text fields
 * go through http/multipart-fields.ts like every form's.
 */

/**
 * Runs a cover check (media-intake's receiveCover / processCover) on the form's `image`: its
 * refusals keep their code and reason but speak of the image, not of cover art.
 */
export async function asAdImage<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof AppError) || error.details?.field !== 'cover') throw error;
    const message =
      error.code === ErrorCode.payloadTooLarge ? adMessages.imageTooLarge : adMessages.imageInvalid;
    throw new AppError(error.code, message, { ...error.details, field: 'image' });
  }
}
