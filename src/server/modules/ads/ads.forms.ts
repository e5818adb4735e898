import { adFormFields, adPatchFields } from '../../../contracts/ads.contract.ts';
import { adLimits, adMessages } from '../../../core/validation/ad.rules.ts';
import { uploadForm } from '../../media/upload-form.ts';

/*
 * The ad forms (media/upload-form.ts): unknown or repeated fields are refused. The image is
 * checked like a song's cover and the audio like a song's, each in the ad form's words.
 */
const files = {
  image: {
    kind: 'image',
    rules: {
      maxBytes: adLimits.imageMaxBytes,
      messages: { tooLarge: adMessages.imageTooLarge, invalid: adMessages.imageInvalid },
    },
    description: 'optional image ≤ 5 MB (checked like a song cover)',
  },
  audio: {
    kind: 'audio',
    rules: {
      maxBytes: adLimits.audioMaxBytes,
      messages: { tooLarge: adMessages.audioTooLarge, invalid: adMessages.audioType },
    },
    declaredAudio: true,
    description: 'optional audio/*: MP3, WAV, FLAC, Ogg or M4A, ≤ 100 MB',
  },
} as const;
// One more file than the form has: a stray file is refused by name, after the rest is read.
const limits = { files: 3, fields: 8, parts: 10, fieldSize: 16 * 1024 };

/** POST /api/admin/ads: a new ad (active at once). */
export const adForm = uploadForm({ text: adFormFields, files, limits });

/** PATCH /api/admin/ads/{id}: the same fields, each optional, and removing a file. */
export const adEditForm = uploadForm({ text: adPatchFields, files, limits });
