import { describe, expect, it } from 'vitest';
import { firstError } from './auth.rules.ts';
import { cleanLine, hasNul, isInvisible, stripBidiControls, visibleLength } from './text.check.ts';
import { textLine, textMessages } from './text.rules.ts';

const BIDI = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];
// Zero-width and format characters, separators and the blank letters: nothing shows.
const INVISIBLE = [
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u180E',
  '\u034F',
  '\u3164',
  '\u115F',
  '\u2800',
  '\uFE0F',
  '\u{E0041}',
  '\u00A0',
  '\u3000',
  '\u2028',
  '\t',
];

describe('text rules', () => {
  it('strips every direction control, wherever it sits, and nothing else', () => {
    for (const c of BIDI) expect(stripBidiControls(`a${c}b${c}`), escape(c)).toBe('ab');
    expect(stripBidiControls('Song\u202Egpj.3pm')).toBe('Songgpj.3pm');
    const kept = 'Ünïcödé 😀 שלום مرحبا a\u200Db';
    expect(stripBidiControls(kept)).toBe(kept);
  });

  it('cleans a line: controls out, then trimmed (a control may hide inside the spaces)', () => {
    expect(cleanLine(' \u202E Title \u202C ')).toBe('Title');
    expect(cleanLine('\u2067')).toBe('');
  });

  it('counts only what shows', () => {
    for (const c of INVISIBLE) expect(isInvisible(c.repeat(3)), escape(c)).toBe(true);
    expect(isInvisible(INVISIBLE.join(''))).toBe(true);
    expect(isInvisible('')).toBe(true);
    expect(visibleLength('a\u200Bb')).toBe(2);
    expect(visibleLength('😀\uFE0F')).toBe(1);
    for (const shown of ['a', '.', '😀', 'ß', '\u0301a', 'ｱ'])
      expect(isInvisible(shown)).toBe(false);
  });

  it('finds NUL anywhere', () => {
    expect(hasNul('a\0')).toBe(true);
    expect(hasNul('\0')).toBe(true);
    expect(hasNul('a\u2400b')).toBe(false); // the visible symbol for NUL is fine
  });

  it('textLine refuses NUL before any later rule, and hands the cleaned line to the rest', () => {
    const rule = textLine().max(3, 'too long');
    expect(firstError(rule, 'x'.repeat(10) + '\0')).toBe(textMessages.nul);
    expect(firstError(rule, '\0')).toBe(textMessages.nul);
    // 5 code units, but 3 once the controls are gone: the length rules see the cleaned line.
    expect(rule.parse('\u202Eabc\u202C')).toBe('abc');
    expect(rule.parse('  ab  ')).toBe('ab');
    expect(firstError(rule, 'abcd')).toBe('too long');
  });
});

const escape = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
