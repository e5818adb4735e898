import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatLyricsTime,
  lyricsLimits,
  parseLyrics,
  renderLyrics,
  type Lyrics,
} from './lyrics-parser.ts';

const ok = (text: string, durationMs?: number): Lyrics => {
  const result = parseLyrics(text, durationMs);
  if (!result.ok) throw new Error(result.problem.message);
  if (!result.lyrics) throw new Error('no lyrics');
  return result.lyrics;
};
const refusal = (text: string, durationMs?: number) => {
  const result = parseLyrics(text, durationMs);
  if (result.ok) throw new Error('accepted');
  return result.problem;
};

describe('lyrics parser', () => {
  it('reads plain text as unsynced lines, keeping inner blank lines', () => {
    const lyrics = ok('\n[Verse 1]\nHello  there\n\nSecond stanza\n\n');
    expect(lyrics.synced).toBe(false);
    expect(lyrics.lines).toEqual([
      { timeMs: null, text: '[Verse 1]' },
      { timeMs: null, text: 'Hello  there' },
      { timeMs: null, text: '' },
      { timeMs: null, text: 'Second stanza' },
    ]);
  });

  it('treats blank text as no lyrics', () => {
    expect(parseLyrics('  \n \r\n')).toEqual({ ok: true, lyrics: null });
  });

  it('reads LRC stamps of every precision, tags and word stamps', () => {
    const lyrics = ok(
      '[ar:Someone]\n[ti:A song]\r\n[length:03:00]\n[00:01]One\n[00:02.5]Two\n[00:03.25]<00:03.25>Three <00:03.90>words\n[00:04.125]Four\n[1:05:50]Five',
    );
    expect(lyrics.synced).toBe(true);
    expect(lyrics.tags).toEqual({ ar: 'Someone', ti: 'A song', length: '03:00' });
    expect(lyrics.lines).toEqual([
      { timeMs: 1000, text: 'One' },
      { timeMs: 2500, text: 'Two' },
      { timeMs: 3250, text: 'Three words' },
      { timeMs: 4125, text: 'Four' },
      { timeMs: 65_500, text: 'Five' },
    ]);
  });

  it('expands a line with several stamps and sorts the expansions by time', () => {
    const lyrics = ok(
      '[00:10.00]Verse\n[00:20.00][01:00.00]Chorus a\n[00:25.00][01:05.00]Chorus b\n[00:30.00]Verse 2',
    );
    expect(lyrics.lines.map((l) => [l.timeMs, l.text])).toEqual([
      [10_000, 'Verse'],
      [20_000, 'Chorus a'],
      [25_000, 'Chorus b'],
      [30_000, 'Verse 2'],
      [60_000, 'Chorus a'],
      [65_000, 'Chorus b'],
    ]);
  });

  it('applies [offset:]: positive shows lines sooner', () => {
    const lyrics = ok('[offset:+500]\n[00:01.00]a\n[00:02.00]b');
    expect(lyrics.offsetMs).toBe(500);
    expect(lyrics.lines.map((l) => l.timeMs)).toEqual([500, 1500]);
    expect(ok('[offset:-250]\n[00:01.00]a').lines[0]!.timeMs).toBe(1250);
    expect(refusal('[offset:+2000]\n[00:01.00]a').line).toBe(2);
    expect(refusal('[offset:soon]\n[00:01.00]a').message).toMatch(/offset/);
  });

  it('refuses lines going backwards, naming the line', () => {
    const p = refusal('[00:20.00]b\n\n[00:10.00]a');
    expect(p.line).toBe(3);
    expect(p.message).toBe('Lyrics line 3: 00:10.00 comes before 00:20.00 on line 1');
    expect(refusal('[00:20.00][00:10.00]b').message).toMatch(
      /^Lyrics line 1: its timestamps go backwards/,
    );
    // Equal times are fine.
    expect(ok('[00:01.00]a\n[00:01.00]b').lines).toHaveLength(2);
  });

  it('refuses a time past the end of the song, and accepts one at the end', () => {
    const p = refusal('[00:01.00]a\n[03:00.01]b', 180_000);
    expect(p).toEqual({
      line: 2,
      message: 'Lyrics line 2: 03:00.01 is past the end of the song (03:00.00)',
    });
    expect(ok('[03:00.00]end', 180_000).lines[0]!.timeMs).toBe(180_000);
  });

  it('refuses a line without a stamp in LRC, and bad seconds', () => {
    expect(refusal('[00:01.00]a\n[Chorus]\n[00:02.00]b').message).toBe(
      'Lyrics line 2: has no [mm:ss.xx] timestamp',
    );
    expect(refusal('[00:61.00]a').message).toMatch(/60 seconds/);
  });

  it('refuses HTML but not word stamps or a heart', () => {
    for (const html of [
      '<script>alert(1)</script>',
      'a <b>bold</b> line',
      '<div>',
      '</p>',
      '<!-- x -->',
      '<img src=x onerror=y>',
    ])
      expect(refusal(`line one\n${html}`)).toEqual({
        line: 2,
        message: 'Lyrics line 2: HTML is not allowed; use plain text or LRC',
      });
    expect(ok('I <3 you, a < b > c').lines[0]!.text).toBe('I <3 you, a < b > c');
    expect(ok('[00:01.00]<00:01.00>word <00:01.50>by word').lines[0]!.text).toBe('word by word');
  });

  it('refuses more than the size and line limits, and control characters', () => {
    expect(refusal('a'.repeat(lyricsLimits.maxBytes + 1))).toEqual({
      line: null,
      message: 'Lyrics must be at most 32 KB',
    });
    // Bytes, not characters: 'é' is two.
    expect(parseLyrics('é'.repeat(lyricsLimits.maxBytes / 2)).ok).toBe(true);
    expect(parseLyrics('é'.repeat(lyricsLimits.maxBytes / 2 + 1)).ok).toBe(false);
    expect(refusal('a\n'.repeat(lyricsLimits.maxLines + 1)).message).toMatch(/at most 1000 lines/);
    expect(refusal('a\nb\u0000').line).toBe(2);
  });

  it('formats times with centiseconds or milliseconds', () => {
    expect(formatLyricsTime(0)).toBe('00:00.00');
    expect(formatLyricsTime(65_120)).toBe('01:05.12');
    expect(formatLyricsTime(65_123)).toBe('01:05.123');
    expect(formatLyricsTime(6_000_000)).toBe('100:00.00');
  });
});

const lineText = fc.string({ maxLength: 40 }).map((s) =>
  s
    // eslint-disable-next-line no-control-regex -- the characters a lyrics line cannot hold
    .replace(/[\r\n<>[\]\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim(),
);

describe('lyrics parser properties', () => {
  it('parses rendered synced lyrics back to the same lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ timeMs: fc.integer({ min: 0, max: 600_000 }), text: lineText }), {
          minLength: 1,
          maxLength: 50,
        }),
        (raw) => {
          const lines = [...raw].sort((a, b) => a.timeMs - b.timeMs);
          const parsed = ok(renderLyrics({ synced: true, lines }), 600_000);
          expect(parsed.synced).toBe(true);
          expect(parsed.lines).toEqual(lines);
        },
      ),
    );
  });

  it("accepts only files whose times are in order and within the song's duration", () => {
    const stamp = fc.integer({ min: 0, max: 400_000 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(stamp, { minLength: 1, maxLength: 3 }), lineText), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.integer({ min: 1, max: 400_000 }),
        (rows, durationMs) => {
          const text = rows
            .map(([stamps, t]) => stamps.map((s) => `[${formatLyricsTime(s)}]`).join('') + t)
            .join('\n');
          const result = parseLyrics(text, durationMs);
          if (!result.ok) return;
          const times = result.lyrics!.lines.map((l) => l.timeMs!);
          for (let i = 1; i < times.length; i++)
            expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);
          for (const t of times) expect(t).toBeLessThanOrEqual(durationMs);
          const firsts = rows.map(([s]) => s[0]!);
          for (let i = 1; i < firsts.length; i++)
            expect(firsts[i]).toBeGreaterThanOrEqual(firsts[i - 1]!);
        },
      ),
    );
  });
});
