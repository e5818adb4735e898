import { episodeFields, podcastFields } from '../../../contracts/podcasts.contract.ts';
import { podcastLimits, podcastMessages } from '../../../core/validation/podcast.rules.ts';
import { COVER_ART } from '../../media/media-intake.ts';
import { uploadForm } from '../../media/upload-form.ts';

/*
 * The podcast forms (media/upload-form.ts): unknown or repeated fields are refused. Text
 * fields up to 32 kB: a 5,000-character description of 4-byte characters fits.
 */
const limits = { files: 2, fields: 7, parts: 9, fieldSize: 32 * 1024 };
const cover = {
  kind: 'image',
  rules: COVER_ART,
  description: 'optional cover image ≤ 5 MB',
} as const;

/** POST /api/podcasts: a new show. */
export const showForm = uploadForm({ text: podcastFields, files: { cover }, limits });

/** PATCH /api/podcasts/{id}: the same fields, each optional; a new cover replaces the old. */
export const showEditForm = uploadForm({ text: podcastFields.partial(), files: { cover }, limits });

/** POST /api/podcasts/{id}/episodes: an episode, its audio checked like a song's. */
export const episodeForm = uploadForm({
  text: episodeFields,
  files: {
    audio: {
      kind: 'audio',
      rules: {
        maxBytes: podcastLimits.audioMaxBytes,
        messages: { tooLarge: podcastMessages.audioTooLarge, invalid: podcastMessages.audioType },
      },
      declaredAudio: true,
      required: podcastMessages.audioRequired,
      description: 'audio/*: MP3, WAV, FLAC, Ogg or M4A',
    },
  },
  limits,
});
