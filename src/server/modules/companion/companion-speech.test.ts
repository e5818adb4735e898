import { describe, expect, it } from 'vitest';
import { companionGrammar, speakable } from './companion-speech.ts';

const dictionary = new Set(['harbor', 'lights', 'silver', 'river', "don't", 'stop']);

describe('the recognizer’s catalogue names', () => {
  it('keeps a name the dictionary can say, in lower case, punctuation gone', () => {
    expect(speakable('Harbor Lights!', dictionary)).toBe('harbor lights');
    expect(speakable("Don't Stop", dictionary)).toBe("don't stop");
  });

  it('leaves out a name with a word the dictionary lacks, an empty one and a long one', () => {
    expect(speakable('Harbor Xyzzy', dictionary)).toBeNull();
    expect(speakable('¿¡', dictionary)).toBeNull();
    expect(speakable('silver river silver river silver river silver', dictionary)).toBeNull();
  });

  it('hears names after who is, tell me about and play only when there are names', () => {
    const without = companionGrammar([]);
    expect(without).not.toContain('<ask>');
    expect(without).not.toContain('<name>');
    const withNames = companionGrammar(['harbor lights', 'silver river']);
    expect(withNames).toContain(
      'public <command> = <playback> | <play> | <recommend> | <help> | <ask> | <play-name>;',
    );
    expect(withNames).toContain('<ask> = (who is | tell me about) <name>;');
    expect(withNames).toContain('<play-name> = play <name>;');
    expect(withNames).toContain('<name> = harbor lights | silver river;');
  });
});
