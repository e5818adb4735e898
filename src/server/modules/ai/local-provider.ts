import { generateLyrics } from '../../../core/ai/lyrics-generator.ts';
import type { AiProvider } from './ai-provider.ts';
import { loadLexicon } from './lexicon.ts';
import { renderCover } from './local-cover.ts';

/** AI_PROVIDER=local: offline, deterministic for a prompt and seed (product §9). */
export function createLocalProvider(): AiProvider {
  return {
    kind: 'local',
    async lyrics({ prompt, seed }) {
      return { text: generateLyrics(await loadLexicon(), prompt, seed).text };
    },
    async coverArt({ prompt, seed }) {
      return { bytes: await renderCover(prompt, seed), format: 'png' };
    },
  };
}
