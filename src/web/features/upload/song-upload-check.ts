// The song upload form's checks before anything is sent (spec §5 order and messages, §8).
import { songMessages, songUploadRules } from '@/core/validation/song.rules.ts';
import { parseLyrics } from '@/core/lyrics/lyrics-parser.ts';
import type { UploadFile } from '@/web/components/upload/upload.ts';
import { namesOtherKind } from '@/web/components/upload/file-kind.ts';

/** The first message of spec §5, in its order, or null when the form may be sent. */
export function firstUploadProblem(form: {
  file: UploadFile | null;
  cover: UploadFile | null;
  title: string;
  genre: string;
  /** Plain or LRC; its times are checked against the audio's length by the server. */
  lyrics?: string;
}): string | null {
  const parsed = songUploadRules.safeParse({
    file: form.file ?? undefined,
    cover: form.cover,
    title: form.title,
    genre: form.genre,
  });
  if (!parsed.success) return parsed.error.issues[0]?.message ?? songMessages.fileInvalid;
  // A type the browser knows and that is plainly not audio/image: no need to send 100 MB.
  if (form.file && namesOtherKind(form.file, 'audio')) return songMessages.audioInvalid;
  if (form.cover && namesOtherKind(form.cover, 'image')) return songMessages.coverInvalid;
  const lyrics = parseLyrics(form.lyrics ?? '');
  if (!lyrics.ok) return lyrics.problem.message;
  return null;
}
