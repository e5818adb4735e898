import { describe, expect, it } from 'vitest';
import { firstError } from './auth.rules.ts';
import {
  artistLabel,
  defaultSongGenre,
  defaultSongTitle,
  GENRE_FILTERS,
  GENRES,
  genreFilterValue,
  listSizes,
  searchQueryRule,
  SEARCH_SORTS,
  songEditRules,
  songLimits,
  songUploadRules,
} from './song.rules.ts';

const MB = 1024 * 1024;
const file = (size: number) => ({ size });

describe('song upload rules (spec §5)', () => {
  it('accepts a file at exactly the limits', () => {
    expect(
      firstError(songUploadRules, {
        file: file(100 * MB),
        cover: file(5 * MB),
        title: 't'.repeat(200),
        genre: 'g'.repeat(100),
      }),
    ).toBeNull();
  });

  it.each([
    [{}, 'Please select a music file to upload'],
    [{ file: undefined, title: 'x'.repeat(300) }, 'Please select a music file to upload'],
    [{ file: file(100 * MB + 1) }, 'Audio file must be less than 100MB'],
    [{ file: file(1), cover: file(5 * MB + 1) }, 'Cover art must be less than 5MB'],
    [{ file: file(1), title: 'x'.repeat(201) }, 'Title must be less than 200 characters'],
    [{ file: file(1), genre: 'x'.repeat(101) }, 'Genre must be less than 100 characters'],
  ])('%o → "%s"', (value, message) => {
    expect(firstError(songUploadRules, value)).toBe(message);
  });

  it('trims before counting', () => {
    expect(
      firstError(songUploadRules, { file: file(1), title: `  ${'x'.repeat(200)}  ` }),
    ).toBeNull();
  });

  it('refuses a blank title on edit, accepts a partial edit', () => {
    expect(firstError(songEditRules, { title: '   ' })).toBe('Title is required');
    expect(firstError(songEditRules, { genre: 'Jazz' })).toBeNull();
  });
});

describe('lists and filters (spec §9)', () => {
  it('has the genre tiles, filter values and sorts of the spec', () => {
    expect(GENRES).toEqual([
      'Pop',
      'Rock',
      'Hip Hop',
      'Electronic',
      'Jazz',
      'Classical',
      'R&B',
      'Country',
    ]);
    expect(GENRE_FILTERS).toEqual(['all', ...GENRES.map((g) => g.toLowerCase())]);
    expect(SEARCH_SORTS).toEqual(['relevance', 'popular', 'recent']);
    expect(listSizes).toMatchObject({
      homeFetch: 12,
      homeSection: 6,
      search: 20,
      externalFallback: 20,
    });
    expect(songLimits).toMatchObject({ audioMaxBytes: 104_857_600, coverMaxBytes: 5_242_880 });
  });

  it('maps genre filters to a lower-cased value, all/blank to none', () => {
    expect(genreFilterValue('all')).toBeNull();
    expect(genreFilterValue('  ')).toBeNull();
    expect(genreFilterValue(undefined)).toBeNull();
    expect(genreFilterValue('Hip Hop')).toBe('hip hop');
  });

  it('accepts quotes and wildcards in a query, refuses NUL and over-long ones', () => {
    expect(firstError(searchQueryRule, `it's 100% "good"_\\`)).toBeNull();
    expect(firstError(searchQueryRule, 'a\0b')).toBe(
      'Search query must not contain NUL characters',
    );
    expect(firstError(searchQueryRule, 'x'.repeat(201))).toBe(
      'Search query must be at most 200 characters',
    );
  });
});

describe('display helpers', () => {
  it('labels the artist as spec §2 says', () => {
    expect(artistLabel({ artist: 'Nova', artist_id: 'abcdef1234' })).toBe('Nova');
    expect(artistLabel({ artist: null, artist_id: 'abcdef1234567' })).toBe('Artist abcdef12');
    expect(artistLabel({})).toBe('Unknown');
  });

  it('derives a title from the tag, then the bare file name', () => {
    expect(defaultSongTitle(' Tagged ', 'x.mp3')).toBe('Tagged');
    expect(defaultSongTitle(undefined, '../../etc/passwd.mp3')).toBe('passwd');
    expect(defaultSongTitle('', 'C:\\music\\My Song.final.wav')).toBe('My Song.final');
    expect(defaultSongTitle(null, '.mp3')).toBe('.mp3');
    expect(defaultSongTitle(null, '')).toBe('Untitled');
    expect(defaultSongTitle('t'.repeat(300), null)).toHaveLength(200);
    expect(defaultSongTitle('Ti\u0000tle', 'x.mp3')).toBe('Title');
  });

  it('takes a genre from the tag without control characters (a NUL cannot be stored)', () => {
    expect(defaultSongGenre(' Ro\u0000ck ')).toBe('Rock');
    expect(defaultSongGenre('g'.repeat(300))).toHaveLength(100);
    expect(defaultSongGenre('\u0000 ')).toBeNull();
    expect(defaultSongGenre(undefined)).toBeNull();
  });
});

describe('song text is clean', () => {
  it('strips direction controls from titles and genres, and trims what they hid', () => {
    const r = songUploadRules.parse({
      file: file(1),
      title: ' \u202EMidnight\u202C Drive ',
      genre: '\u2067Jazz\u2069',
    });
    expect(r).toMatchObject({ title: 'Midnight Drive', genre: 'Jazz' });
  });

  it('refuses a title of only zero-width characters, on upload and on edit', () => {
    for (const title of ['\u200B', '\u200B\u200D\uFEFF', ' \u2060 ', '\u202E\u200B'])
      expect(firstError(songUploadRules, { file: file(1), title })).toBe('Title is required');
    expect(firstError(songEditRules, { title: '\u200C' })).toBe('Title is required');
    // Blank stays blank on upload (the server derives a title); on an edit it is refused.
    expect(firstError(songUploadRules, { file: file(1), title: '\u202E' })).toBeNull();
    expect(firstError(songEditRules, { title: '\u202E ' })).toBe('Title is required');
    // Zero-width characters inside a visible title are kept (ZWJ emoji, ZWNJ in Persian).
    expect(songEditRules.parse({ title: 'می\u200Cخواهم' }).title).toBe('می\u200Cخواهم');
  });

  it('treats a genre of only invisible characters as none', () => {
    expect(songUploadRules.parse({ file: file(1), genre: '\u200B\u3164' }).genre).toBe('');
  });

  it('refuses NUL in a title or genre with its own message, whatever else is wrong', () => {
    const nul = 'Text must not contain NUL characters';
    expect(firstError(songUploadRules, { file: file(1), title: 'a\0b' })).toBe(nul);
    expect(firstError(songEditRules, { genre: 'x'.repeat(300) + '\0' })).toBe(nul);
  });

  it('cleans titles and genres that come from tags and file names the same way', () => {
    expect(defaultSongTitle('\u202Etitle\u202C', 'x.mp3')).toBe('title');
    expect(defaultSongTitle('\u200B\u200B', 'Real Name.mp3')).toBe('Real Name');
    expect(defaultSongTitle(undefined, 'exe\u202Egpj.mp3')).toBe('exegpj');
    expect(defaultSongTitle(undefined, '\u200B.mp3')).toBe('Untitled');
    expect(defaultSongGenre('\u2066Rock\u2069')).toBe('Rock');
    expect(defaultSongGenre('\u200B')).toBeNull();
  });

  it('strips direction controls from a search query', () => {
    expect(searchQueryRule.parse('\u202Erock')).toBe('rock');
  });
});
