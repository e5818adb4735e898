import { dictionary } from 'cmu-pronouncing-dictionary';
import { syllable } from 'syllable';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateLyrics, lastWord, type Lexicon } from '../../../core/ai/lyrics-generator.ts';
import { loadLexicon } from './lexicon.ts';

// Read straight from the dictionary, not through the lexicon under test.
function rhymeOf(word: string): string {
  const phones = dictionary[word]!.split(' ');
  let at = phones.length - 1;
  while (at > 0 && !/[12]$/.test(phones[at]!)) at--;
  return phones.slice(at).join(' ').replace(/\d/g, '');
}

const PROMPTS = [
  'a song about the ocean at night',
  'summer love in the city',
  'electric dreams of tomorrow morning',
  'lonely highway through the desert',
  'dancing in the rain with you',
  'mountains',
];

describe('the offline lyrics generator', () => {
  let lexicon: Lexicon;
  beforeAll(async () => {
    lexicon = await loadLexicon();
  });

  it('writes a title and Verse 1, Chorus, Verse 2, Chorus of four lines each', () => {
    const lyrics = generateLyrics(lexicon, 'a song about the ocean at night', 7);
    expect(lyrics.sections.map((s) => s.label)).toEqual(['Verse 1', 'Chorus', 'Verse 2', 'Chorus']);
    for (const s of lyrics.sections) expect(s.lines).toHaveLength(4);
    expect(lyrics.sections[1]!.lines).toEqual(lyrics.sections[3]!.lines);
    expect(lyrics.text.split('\n')[0]).toBe(lyrics.title);
    expect(lyrics.text).toContain('[Verse 1]\n');
    expect(lyrics.text).toContain('\n\n[Chorus]\n');
    expect(lyrics.title.toLowerCase()).toContain('ocean');
  });

  it.each(PROMPTS)('ends its lines in rhymes the dictionary confirms: %s', (prompt) => {
    for (const seed of [0, 1, 99, 123_456]) {
      const { sections } = generateLyrics(lexicon, prompt, seed);
      for (const { label, lines } of sections) {
        const keys = lines.map((l) => rhymeOf(lastWord(l)));
        const ends = lines.map(lastWord);
        // Every line's end rhymes with exactly one other line's in its section (AABB or ABAB),
        // and never with itself: two different words.
        for (let i = 0; i < 4; i++) {
          const partners = keys
            .map((k, j) => (j !== i && k === keys[i] ? j : -1))
            .filter((j) => j >= 0);
          expect(partners.length, `${label}: ${lines.join(' / ')}`).toBeGreaterThanOrEqual(1);
          for (const j of partners) expect(ends[j]).not.toBe(ends[i]);
        }
        const scheme = keys[0] === keys[1] ? 'AABB' : keys[0] === keys[2] ? 'ABAB' : 'other';
        expect(scheme, `${label}: ${lines.join(' / ')}`).not.toBe('other');
      }
    }
  });

  it.each(PROMPTS)('keeps a steady syllable count per line: %s', (prompt) => {
    const { sections, syllablesPerLine } = generateLyrics(lexicon, prompt, 3);
    expect(syllablesPerLine).toBeGreaterThanOrEqual(6);
    expect(syllablesPerLine).toBeLessThanOrEqual(10);
    for (const line of sections.flatMap((s) => s.lines)) {
      const words = line.toLowerCase().match(/[a-z']+/g)!;
      // By the dictionary's vowels: exactly the song's count.
      const byDictionary = words.reduce(
        (n, w) =>
          n +
          (dictionary[w]
            ? dictionary[w].split(' ').filter((p) => /\d$/.test(p)).length
            : syllable(w)),
        0,
      );
      expect(byDictionary, line).toBe(syllablesPerLine);
      // By an independent estimate (the syllable package): within one of it.
      expect(Math.abs(syllable(line) - syllablesPerLine), line).toBeLessThanOrEqual(2);
    }
  });

  it('uses the prompt’s words', () => {
    const { text } = generateLyrics(lexicon, 'lonely highway through the desert', 5);
    for (const word of ['lonely', 'highway', 'desert']) expect(text.toLowerCase()).toContain(word);
  });

  it('gives the same song for the same prompt and seed, another for another seed or prompt', () => {
    const a = generateLyrics(lexicon, 'Summer love in the city', 42).text;
    expect(generateLyrics(lexicon, 'summer   love in the CITY ', 42).text).toBe(a);
    expect(generateLyrics(lexicon, 'Summer love in the city', 43).text).not.toBe(a);
    const texts = new Set(PROMPTS.map((p) => generateLyrics(lexicon, p, 42).text));
    expect(texts.size).toBe(PROMPTS.length);
  });

  it('writes something for a prompt without content words', () => {
    const { sections } = generateLyrics(lexicon, '!!! ??? 123', 1);
    expect(sections.flatMap((s) => s.lines).every((l) => l.length > 0)).toBe(true);
  });

  it('takes well under 50 ms per song once the dictionary is loaded', () => {
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      generateLyrics(lexicon, `${PROMPTS[i % PROMPTS.length]} ${i}`, i);
      times.push(performance.now() - start);
    }
    times.sort((x, y) => x - y);
    expect(times[Math.floor(times.length * 0.95)]!).toBeLessThan(50);
  });
});
