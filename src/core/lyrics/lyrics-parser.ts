/*
 * A song's lyrics as an artist types them: plain text, or LRC (docs/decisions/0037). Pure, so
 * the upload and edit forms show the very refusals the server answers with.
 *
 * LRC read here:
 * - `[mm:ss]`, `[mm:ss.x]`, `[mm:ss.xx]`, `[mm:ss.xxx]` (or `:` before the fraction) at the
 *   start of a line; several in a row give the line at each of those times (a chorus).
 * - `[offset:±ms]`: positive shows every line sooner (the LRC convention).
 * - Other `[key:value]` lines ([ar:], [ti:], [al:], [length:], [by:]…) are kept in `tags`.
 * - Enhanced word stamps `<mm:ss.xx>` inside a line are dropped from its text.
 * Order: a line's own stamps must not go backwards, nor a line's first stamp before the one
 * above it; the expanded lines are then sorted by time (repeated choruses fall into place).
 */

export const lyricsLimits = {
  /** UTF-8 bytes of the whole text. */
  maxBytes: 32 * 1024,
  /** Lines of text (plain), or timed lines after expanding repeated stamps (LRC). */
  maxLines: 1000,
} as const;

export type LyricsLine = {
  /** When the line starts, offset applied, in ms; null for plain lyrics. */
  timeMs: number | null;
  text: string;
};

export type Lyrics = {
  synced: boolean;
  /** The file's [offset:] in ms (already applied to `timeMs`); 0 without one. */
  offsetMs: number;
  /** Timed lines in time order (synced), or every line as typed (plain). */
  lines: LyricsLine[];
  /** [ar:], [ti:], [al:], [length:]… as given, keys lower-cased. */
  tags: Record<string, string>;
};

/** Why lyrics are refused; `line` is 1-based in the text as typed, null for the whole text. */
export type LyricsProblem = { line: number | null; message: string };

export type LyricsResult =
  { ok: true; lyrics: Lyrics | null } | { ok: false; problem: LyricsProblem };

const STAMP = /^\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/;
const TAG_LINE = /^\[([a-zA-Z#]+)\s*:([^\]]*)\]\s*$/;
const WORD_STAMP = /<\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?>/g;
// An HTML tag, closing tag, comment or doctype; `<3` or a word stamp `<00:12.34>` is none.
const HTML = /<\/?[a-zA-Z][^<>]*>|<!--|<![a-zA-Z]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** `mm:ss.xx` for `ms` (three fraction digits when it has whole milliseconds). */
export function formatLyricsTime(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const fraction = ms % 1000;
  const frac =
    fraction % 10 === 0
      ? String(fraction / 10).padStart(2, '0')
      : String(fraction).padStart(3, '0');
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${frac}`;
}

const problem = (line: number | null, message: string): LyricsResult => ({
  ok: false,
  problem: { line, message },
});
const at = (line: number, message: string) => problem(line, `Lyrics line ${line}: ${message}`);

/** Every stamp at the start of `line` (ms) and the rest of it; a bad stamp is a problem. */
function leadingStamps(line: string): { stamps: number[]; rest: string } | { error: string } {
  const stamps: number[] = [];
  let rest = line;
  for (let m = STAMP.exec(rest); m; m = STAMP.exec(rest)) {
    const [whole, min, sec, frac] = m;
    if (Number(sec) >= 60) return { error: `[${whole.slice(1, -1)}] has 60 seconds or more` };
    const fractionMs = frac ? Number(frac.padEnd(3, '0')) : 0;
    stamps.push(Number(min) * 60_000 + Number(sec) * 1000 + fractionMs);
    rest = rest.slice(whole.length).trimStart();
  }
  return { stamps, rest };
}

/**
 * Reads lyrics as typed. Blank text is no lyrics (`lyrics: null`). `durationMs`, when known,
 * bounds every time (a time past the song's end is refused).
 */
export function parseLyrics(input: string, durationMs?: number | null): LyricsResult {
  if (new TextEncoder().encode(input).length > lyricsLimits.maxBytes)
    return problem(null, `Lyrics must be at most ${lyricsLimits.maxBytes / 1024} KB`);
  const rows = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [i, row] of rows.entries()) {
    if (CONTROL.test(row)) return at(i + 1, 'contains a control character');
    if (HTML.test(row)) return at(i + 1, 'HTML is not allowed; use plain text or LRC');
  }
  if (rows.every((row) => row.trim() === '')) return { ok: true, lyrics: null };

  const synced = rows.some((row) => STAMP.test(row.trim()));
  if (!synced) {
    const lines = rows.map((row) => row.trimEnd());
    while (lines[0]?.trim() === '') lines.shift();
    while (lines.at(-1)?.trim() === '') lines.pop();
    if (lines.length > lyricsLimits.maxLines)
      return problem(null, `Lyrics must have at most ${lyricsLimits.maxLines} lines`);
    return {
      ok: true,
      lyrics: {
        synced: false,
        offsetMs: 0,
        lines: lines.map((text) => ({ timeMs: null, text })),
        tags: {},
      },
    };
  }

  const tags: Record<string, string> = {};
  const timed: Array<{ stampMs: number; text: string; row: number }> = [];
  let previousFirst = -1;
  let previousRow = 0;
  for (const [i, raw] of rows.entries()) {
    const row = raw.trim();
    const n = i + 1;
    if (row === '') continue;
    const tag = TAG_LINE.exec(row);
    if (tag && !STAMP.test(row)) {
      tags[tag[1]!.toLowerCase()] = tag[2]!.trim();
      continue;
    }
    const read = leadingStamps(row);
    if ('error' in read) return at(n, read.error);
    const { stamps, rest } = read;
    if (stamps.length === 0) return at(n, 'has no [mm:ss.xx] timestamp');
    for (let k = 1; k < stamps.length; k++)
      if (stamps[k]! < stamps[k - 1]!)
        return at(n, `its timestamps go backwards (${formatLyricsTime(stamps[k]!)})`);
    if (stamps[0]! < previousFirst)
      return at(
        n,
        `${formatLyricsTime(stamps[0]!)} comes before ${formatLyricsTime(previousFirst)} on line ${previousRow}`,
      );
    previousFirst = stamps[0]!;
    previousRow = n;
    const text = rest.replace(WORD_STAMP, '').replace(/\s+/g, ' ').trim();
    for (const stampMs of stamps) timed.push({ stampMs, text, row: n });
  }
  if (timed.length > lyricsLimits.maxLines)
    return problem(null, `Lyrics must have at most ${lyricsLimits.maxLines} lines`);

  let offsetMs = 0;
  if (tags.offset !== undefined) {
    if (!/^[+-]?\d{1,7}$/.test(tags.offset))
      return problem(null, 'Lyrics [offset:] must be a whole number of milliseconds, like +250');
    offsetMs = Number(tags.offset);
  }
  const lines: LyricsLine[] = [];
  for (const t of timed.sort((a, b) => a.stampMs - b.stampMs)) {
    const timeMs = t.stampMs - offsetMs;
    if (timeMs < 0)
      return at(t.row, `the [offset:] puts ${formatLyricsTime(t.stampMs)} before the start`);
    if (durationMs != null && timeMs > durationMs)
      return at(
        t.row,
        `${formatLyricsTime(timeMs)} is past the end of the song (${formatLyricsTime(durationMs)})`,
      );
    lines.push({ timeMs, text: t.text });
  }
  return { ok: true, lyrics: { synced: true, offsetMs, lines, tags } };
}

/** Lyrics written back as text: LRC with one stamp per line (offset applied), or plain. */
export function renderLyrics(lyrics: Pick<Lyrics, 'synced' | 'lines'>): string {
  return lyrics.lines
    .map((l) => (lyrics.synced ? `[${formatLyricsTime(l.timeMs ?? 0)}]${l.text}` : l.text))
    .join('\n');
}

/** The words alone, a line each (Subsonic's getLyrics, a plain view of synced lyrics). */
export const lyricsPlainText = (lyrics: Pick<Lyrics, 'lines'>): string =>
  lyrics.lines.map((l) => l.text).join('\n');
