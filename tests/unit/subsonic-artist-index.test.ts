import { describe, expect, it } from 'vitest';
import {
  compareBySortName,
  IGNORED_ARTICLES_TEXT,
  indexLetter,
  sortName,
} from '../../src/core/subsonic/artist-index.ts';

describe('subsonic artist index', () => {
  it('ignores the articles The, An and A, whatever their case', () => {
    expect(IGNORED_ARTICLES_TEXT).toBe('The An A');
    expect(sortName('The Beatles')).toBe('Beatles');
    expect(sortName('the beatles')).toBe('beatles');
    expect(sortName('An Horse')).toBe('Horse');
    expect(sortName('A Tribe Called Quest')).toBe('Tribe Called Quest');
    // Only a whole leading word followed by more name is an article.
    expect(sortName('Theory')).toBe('Theory');
    expect(sortName('Abba')).toBe('Abba');
    expect(sortName('The')).toBe('The');
    expect(sortName('  The  Cure ')).toBe('Cure');
  });

  it('indexes by the first letter of the sort name, non-letters under #', () => {
    expect(indexLetter('The Beatles')).toBe('B');
    expect(indexLetter('a tribe')).toBe('T');
    expect(indexLetter('abba')).toBe('A');
    expect(indexLetter('Émile')).toBe('E');
    expect(indexLetter('2Pac')).toBe('#');
    expect(indexLetter('!!!')).toBe('#');
    expect(indexLetter('Мумий Тролль')).toBe('#');
    expect(indexLetter('')).toBe('#');
    expect(indexLetter('The The')).toBe('T');
  });

  it('sorts by sort name ignoring case', () => {
    const names = ['The Zombies', 'abba', 'A Band', 'Beatles', 'the Beatles'];
    expect([...names].sort(compareBySortName)).toEqual([
      'abba',
      'A Band',
      'Beatles',
      'the Beatles',
      'The Zombies',
    ]);
  });
});
