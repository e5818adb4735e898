import { z } from 'zod';
import { AVATAR_FIELD } from '../../../contracts/social.contract.ts';
import { profileLimits, profileMessages } from '../../../core/validation/profile.rules.ts';
import { uploadForm } from '../../media/upload-form.ts';

/**
 * PUT /api/me/profile/avatar (media/upload-form.ts): one image, checked like a song's cover
 * in the avatar's words; text fields are ignored. Two files, so that a stray one is refused
 * by name instead of being dropped by the parser.
 */
export const avatarForm = uploadForm({
  text: z.object({}),
  lenientText: true,
  files: {
    [AVATAR_FIELD]: {
      kind: 'image',
      rules: {
        maxBytes: profileLimits.avatarMaxBytes,
        messages: {
          tooLarge: profileMessages.avatarTooLarge,
          invalid: profileMessages.avatarNotImage,
        },
      },
      required: profileMessages.avatarRequired,
      description: 'avatar image ≤ 5 MB (JPEG, PNG, WebP, GIF, AVIF)',
    },
  },
  limits: { files: 2, fields: 2, parts: 4, fieldSize: 1024 },
});
