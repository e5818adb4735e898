import { z } from 'zod';
import { songUploadText } from '../../../contracts/songs.contract.ts';
import { songLimits, songMessages } from '../../../core/validation/song.rules.ts';
import { lyricsLimits } from '../../../core/lyrics/lyrics-parser.ts';
import { COVER_ART } from '../../media/media-intake.ts';
import { uploadForm } from '../../media/upload-form.ts';

/*
 * The song forms (media/upload-form.ts). Their text fields are forgiving, as they have
 * always been: unknown ones are ignored, the last of a repeated one counts. With ≤ 2 files,
 * ≤ 5 fields of at most the lyrics' 32 KB and the cover cut at 5 MB, a request body is never
 * read past ~106 MB.
 */
const limits = { files: 2, fields: 5, parts: 7, fieldSize: lyricsLimits.maxBytes };

/** POST /api/songs: spec §5's upload, in one request. */
export const songUploadForm = uploadForm({
  text: songUploadText,
  lenientText: true,
  files: {
    file: {
      kind: 'audio',
      rules: {
        maxBytes: songLimits.audioMaxBytes,
        messages: { tooLarge: songMessages.audioTooLarge, invalid: songMessages.audioInvalid },
      },
      required: songMessages.fileRequired,
      description: 'audio: MP3, WAV, FLAC, Ogg or M4A',
    },
    cover: { kind: 'image', rules: COVER_ART, description: 'optional cover image ≤ 5 MB' },
  },
  limits,
});

/** PUT /api/songs/{id}/cover: a new cover; text fields are ignored. */
export const songCoverForm = uploadForm({
  text: z.object({}),
  lenientText: true,
  files: {
    cover: {
      kind: 'image',
      rules: COVER_ART,
      required: 'Please select a cover image to upload',
      description: 'image ≤ 5 MB',
    },
  },
  limits,
});
