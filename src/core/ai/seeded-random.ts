// Deterministic randomness for the offline generators: the same prompt and seed give the same
// song and the same cover on every machine. Pure.

/** FNV-1a over the UTF-16 code units: a stable 32-bit hash of a string. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast generator, good enough for choosing words and colours. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The prompt as the generators read it: lower case, single spaces. */
export const normalizedPrompt = (prompt: string) =>
  prompt.trim().toLowerCase().replace(/\s+/g, ' ');

/** One generator's stream for a prompt and seed. */
export const randomFor = (prompt: string, seed: number, salt: string): Random =>
  seededRandom(hashText(`${salt}\u0000${normalizedPrompt(prompt)}\u0000${seed}`));

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i in into is it its me my of on or our so ' +
    'that the their them they this to was we were with you your about song songs lyrics lyric ' +
    'cover art write make create generate please some very'
  ).split(' '),
);

/** The prompt's content words, in order, once each (letters and apostrophes only). */
export function contentWords(prompt: string, max = 8): string[] {
  const seen = new Set<string>();
  for (const raw of normalizedPrompt(prompt).match(/[a-z][a-z']*/g) ?? []) {
    const word = raw.replace(/'+$/, '');
    if (word.length < 3 || STOP_WORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    if (seen.size >= max) break;
  }
  return [...seen];
}
