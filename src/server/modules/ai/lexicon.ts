import type { Lexicon } from '../../../core/ai/lyrics-generator.ts';

/**
 * The CMU pronouncing dictionary as a Lexicon. Its module is a 3.6 MB object literal, so it is
 * imported on the first generation, not at start; every later call is a map lookup.
 */
let loading: Promise<Lexicon> | undefined;

export function loadLexicon(): Promise<Lexicon> {
  loading ??= (async () => {
    const [{ dictionary }, { syllable }] = await Promise.all([
      import('cmu-pronouncing-dictionary'),
      import('syllable'),
    ]);
    const phones = (word: string) => {
      const entry = Object.hasOwn(dictionary, word) ? dictionary[word] : undefined;
      return entry ? entry.split(' ') : null;
    };
    return {
      syllables(word) {
        const p = phones(word);
        return p ? p.filter((ph) => /\d$/.test(ph)).length : Math.max(1, syllable(word));
      },
      rhymeKey(word) {
        const p = phones(word);
        if (!p) return null;
        let at = -1;
        for (let i = p.length - 1; i >= 0 && at < 0; i--) if (/[12]$/.test(p[i]!)) at = i;
        for (let i = p.length - 1; i >= 0 && at < 0; i--) if (/\d$/.test(p[i]!)) at = i;
        return at < 0 ? null : p.slice(at).join(' ').replace(/\d/g, '');
      },
    };
  })();
  // A failed import is tried again by the next call.
  loading.catch(() => (loading = undefined));
  return loading;
}
