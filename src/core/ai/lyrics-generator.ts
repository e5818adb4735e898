import { contentWords, pick, randomFor, shuffled, type Random } from './seeded-random.ts';

/**
 * Offline lyrics (product §9): verses and a chorus built on the prompt's words, lines ending in
 * rhymes the pronouncing dictionary confirms, every line the song's one syllable count. Pure:
 * the dictionary comes in as a Lexicon, so the server decides how it is loaded.
 */
export type Lexicon = {
  /** Syllables of one lower-case word (the dictionary's vowels, or an estimate). */
  syllables(word: string): number;
  /** The phones from the last stressed vowel to the end, or null for an unknown word. */
  rhymeKey(word: string): string | null;
};

export type LyricsSection = { label: string; lines: string[] };
export type Lyrics = {
  title: string;
  /** The syllables every line has. */
  syllablesPerLine: number;
  sections: LyricsSection[];
  /** The whole song as shown: title, then each section under its [label]. */
  text: string;
};

// Line openings: each ends where a noun phrase may follow.
const HEADS = [
  'In the',
  'Like the',
  'Under the',
  'Out on the',
  'Into the',
  'I found the',
  'Hold me like the',
  'We ran across the',
  'Tonight we chase the',
  'Carry me to the',
  'Somewhere beyond the',
  'Every time I see the',
  "Don't let go of the",
  'Dancing in the',
  'Whispers of the',
  'Down beside the',
  'I keep on chasing the',
  'Lost inside the',
  'You light up the',
  'We sing about the',
  'Waiting for the',
  'I still remember the',
  'Follow me into the',
  'Hear the call of the',
  'Running through the',
  'Falling into the',
  'Holding on to the',
  'Waking up to the',
  'Calling out to the',
  'Drifting on the',
  'Singing to the',
  'Looking for the',
] as const;

// Words that may stand before the line's last word.
const MODIFIERS = [
  'wild',
  'bright',
  'sweet',
  'lost',
  'warm',
  'dark',
  'soft',
  'slow',
  'deep',
  'pale',
  'golden',
  'silver',
  'broken',
  'endless',
  'gentle',
  'quiet',
  'burning',
  'fading',
  'shining',
  'restless',
  'hollow',
  'distant',
  'crimson',
  'silent',
  'beautiful',
  'electric',
  'infinite',
  'forgotten',
] as const;

// Line endings: common nouns (each follows 'the …' well) in families the dictionary says rhyme.
const END_WORDS = (
  'night light flight sight kite delight fire desire choir wire heart start art chart sky ' +
  'goodbye lullaby fly sigh eyes skies surprise lies sunrise disguise rain pain train chain ' +
  'lane refrain flame name game frame sea key tree dream stream gleam beam scream home foam ' +
  'chrome dome stone bone throne zone tone soul goal roll coal control gold hold sun run day ' +
  'play ray rose snows shows moon tune balloon time rhyme climb chime love glove dove street ' +
  'beat heat feet town crown gown ground sound shore door floor core wave cave grave dance ' +
  'chance glance romance star car guitar tears years fears cheers mind kind air care hair ' +
  'dust trust rust storm form blue view'
).split(' ');

const lexiconFamilies = new WeakMap<Lexicon, Map<string, string[]>>();

/** END_WORDS grouped by rhyme key (only keys with two words or more), once per lexicon. */
function families(lexicon: Lexicon): Map<string, string[]> {
  let found = lexiconFamilies.get(lexicon);
  if (found) return found;
  const byKey = new Map<string, string[]>();
  for (const word of END_WORDS) {
    const key = lexicon.rhymeKey(word);
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), word]);
  }
  found = new Map([...byKey].filter(([, words]) => words.length >= 2));
  lexiconFamilies.set(lexicon, found);
  return found;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const countPhrase = (lexicon: Lexicon, phrase: string) =>
  phrase
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .reduce((n, w) => n + lexicon.syllables(w.replace(/[^a-z']/g, '')), 0);

/** Pairs of distinct rhyming words, the prompt's own words first where they rhyme. */
function rhymePairs(lexicon: Lexicon, random: Random, theme: string[], count: number) {
  const all = families(lexicon);
  const used = new Set<string>();
  const pairs: [string, string][] = [];
  // A prompt word whose family has an END_WORD partner ends a line itself.
  for (const word of theme) {
    const key = lexicon.rhymeKey(word);
    const partners = key ? (all.get(key) ?? []).filter((w) => w !== word && !used.has(w)) : [];
    if (partners.length === 0 || pairs.length >= count) continue;
    const partner = pick(random, partners);
    pairs.push([word, partner]);
    used.add(word).add(partner);
  }
  const keys = shuffled(random, [...all.keys()]);
  for (const key of keys) {
    if (pairs.length >= count) break;
    const free = shuffled(
      random,
      all.get(key)!.filter((w) => !used.has(w)),
    );
    if (free.length < 2) continue;
    pairs.push([free[0]!, free[1]!]);
    used.add(free[0]!).add(free[1]!);
  }
  return pairs;
}

/**
 * One line of exactly `target` syllables ending in `end`: an opening, the prompt's word when it
 * fits, and modifiers to fill. One-syllable modifiers exist, so any gap can be filled.
 */
function line(
  lexicon: Lexicon,
  random: Random,
  target: number,
  end: string,
  include: string | undefined,
): string {
  const endCount = lexicon.syllables(end);
  const includeCount = include && include !== end ? lexicon.syllables(include) : 0;
  const heads = shuffled(random, HEADS);
  let head = heads.find((h) => countPhrase(lexicon, h) + endCount + includeCount <= target);
  let withInclude = includeCount > 0 && head !== undefined;
  if (!head) {
    head = heads.find((h) => countPhrase(lexicon, h) + endCount <= target) ?? 'In the';
    withInclude = false;
  }
  let gap = target - countPhrase(lexicon, head) - endCount - (withInclude ? includeCount : 0);
  const words: string[] = [];
  const fillers = [...MODIFIERS].filter((m) => m !== end && m !== include);
  while (gap > 0) {
    const room = gap;
    const fits = fillers.filter((m) => lexicon.syllables(m) <= room && !words.includes(m));
    const chosen = pick(random, fits.length > 0 ? fits : ['oh']);
    words.push(chosen);
    gap -= lexicon.syllables(chosen);
  }
  // Modifiers, then the prompt's word beside the last one: 'the quiet ocean night'.
  return capitalize([head, ...words, ...(withInclude ? [include!] : []), end].join(' '));
}

/** Lyrics for a prompt: the same prompt and seed give the same song. */
export function generateLyrics(lexicon: Lexicon, prompt: string, seed: number): Lyrics {
  const random = randomFor(prompt, seed, 'lyrics');
  const words = contentWords(prompt);
  const theme = words.length > 0 ? words : ['night', 'road', 'heart'];
  const target = 6 + Math.floor(random() * 5);
  const hook = theme[0]!;

  const pairs = rhymePairs(lexicon, random, theme, 6);
  const [chorusA, chorusB] = [pairs[0]!, pairs[1]!];
  const themeAt = (i: number) => theme[i % theme.length];
  const chorus = [
    line(lexicon, random, target, chorusA[0], hook),
    line(lexicon, random, target, chorusA[1], themeAt(1)),
    line(lexicon, random, target, chorusB[0], hook),
    line(lexicon, random, target, chorusB[1], themeAt(2)),
  ];
  const verse = (first: [string, string], second: [string, string], offset: number) => {
    // AABB or ABAB, by the seed.
    const ends =
      random() < 0.5
        ? [first[0], first[1], second[0], second[1]]
        : [first[0], second[0], first[1], second[1]];
    return ends.map((end, i) => line(lexicon, random, target, end, themeAt(offset + i)));
  };
  const sections: LyricsSection[] = [
    { label: 'Verse 1', lines: verse(pairs[2]!, pairs[3]!, 1) },
    { label: 'Chorus', lines: chorus },
    { label: 'Verse 2', lines: verse(pairs[4]!, pairs[5]!, 2) },
    { label: 'Chorus', lines: chorus },
  ];
  const titleWords = theme.slice(0, 1 + Math.floor(random() * Math.min(3, theme.length)));
  const title = pick(random, ['{}', '{}', 'The {} Song', '{} Tonight', 'Songs of {}']).replace(
    '{}',
    titleWords.map(capitalize).join(' '),
  );
  const text = [title, ...sections.map((s) => `[${s.label}]\n${s.lines.join('\n')}`)].join('\n\n');
  return { title, syllablesPerLine: target, sections, text };
}

/** The last word of a lyrics line, lower case. */
export const lastWord = (text: string) => (text.toLowerCase().match(/[a-z']+/g) ?? []).at(-1) ?? '';
