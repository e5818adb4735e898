import { z } from 'zod';
import { lyricsLimits, parseLyrics } from '../lyrics/lyrics-parser.ts';

export const lyricsMessages = {
  help: 'Paste plain lyrics or LRC with [mm:ss.xx] timestamps',
  tooLong: `Lyrics must be at most ${lyricsLimits.maxBytes / 1024} KB`,
} as const;

/**
 * Lyrics as a form or a body sends them: size, HTML and LRC format checked here, where the
 * song's length is not known yet; the service checks the times against it. Blank is none.
 */
export const lyricsRule = z
  .string()
  // Characters never outnumber UTF-8 bytes: documents the limit (maxLength) and ends early.
  .max(lyricsLimits.maxBytes, { message: lyricsMessages.tooLong, abort: true })
  .superRefine((text, ctx) => {
    const result = parseLyrics(text);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: result.problem.message });
  });
