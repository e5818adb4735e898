// The song edit dialog's checks before anything is sent: the spec messages of song.rules
// (title required and ≤ 200, genre ≤ 100, cover ≤ 5 MB and an image) and the lyrics' rules
// (LRC times within the song's duration). The server re-checks.
import { songEditRules, songLimits, songMessages } from '@/core/validation/song.rules.ts';
import { parseLyrics } from '@/core/lyrics/lyrics-parser.ts';
import type { UploadFile } from '@/web/components/upload/upload.ts';
import { namesOtherKind } from '@/web/components/upload/file-kind.ts';

export type SongEditField = 'title' | 'genre' | 'cover' | 'lyrics';

/** The first problem, with the field it belongs to, or null when the edit may be sent. */
export function firstEditProblem(form: {
  title: string;
  genre: string;
  cover: UploadFile | null;
  lyrics?: string;
  /** The song's length in seconds, when known: LRC times must be within it. */
  duration?: number | null;
}): { field: SongEditField; message: string } | null {
  const parsed = songEditRules.safeParse({ title: form.title, genre: form.genre });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      field: issue?.path[0] === 'genre' ? 'genre' : 'title',
      message: issue?.message ?? songMessages.fileInvalid,
    };
  }
  if (form.cover && form.cover.size > songLimits.coverMaxBytes)
    return { field: 'cover', message: songMessages.coverTooLarge };
  if (form.cover && namesOtherKind(form.cover, 'image'))
    return { field: 'cover', message: songMessages.coverInvalid };
  const durationMs = form.duration == null ? null : Math.round(form.duration * 1000);
  const lyrics = parseLyrics(form.lyrics ?? '', durationMs);
  if (!lyrics.ok) return { field: 'lyrics', message: lyrics.problem.message };
  return null;
}
