import { describe, expect, it } from 'vitest';
import { aiMixTitle } from '../validation/recommendation.rules.ts';
import {
  dominantGenre,
  rankCandidates,
  scoreCandidates,
  type Candidate,
} from './recommendation-score.ts';

const c = (songId: string, over: Partial<Candidate> = {}): Candidate => ({
  songId,
  artistKey: `artist-of-${songId}`,
  coListening: 0,
  genreAffinity: 0,
  artistAffinity: 0,
  playCount: 0,
  popularityRank: 0,
  ...over,
});

describe('recommendation scoring', () => {
  it('puts co-listened songs of the listener’s genre above merely popular ones', () => {
    const ranked = rankCandidates(
      [
        c('hit', { playCount: 1_000_000, popularityRank: 0 }),
        c('jazz', { genreAffinity: 0.9, coListening: 2, playCount: 3, popularityRank: 5 }),
        c('circle', { artistAffinity: 0.5, coListening: 1, playCount: 10, popularityRank: 3 }),
      ],
      { limit: 3, personal: true, perArtist: 3 },
    );
    expect(ranked).toEqual(['jazz', 'circle', 'hit']);
  });

  it('weighs a spread taste less than a concentrated one', () => {
    const spread = scoreCandidates([c('a', { genreAffinity: 0.1 })]).get('a')!;
    const fan = scoreCandidates([c('a', { genreAffinity: 0.8 })]).get('a')!;
    expect(fan).toBeGreaterThan(spread * 3);
  });

  it('gives a listener of hits the hits', () => {
    const candidates = [
      c('niche', { genreAffinity: 0.2, coListening: 0.5, playCount: 10, popularityRank: 1 }),
      c('hit', { coListening: 0.4, playCount: 10_000, popularityRank: 0 }),
    ];
    const opts = { limit: 1, personal: true, perArtist: 3 };
    expect(rankCandidates(candidates, { ...opts, mainstream: 0 })).toEqual(['niche']);
    expect(rankCandidates(candidates, { ...opts, mainstream: 0.5 })).toEqual(['hit']);
  });

  it('scales co-listening by its largest value, so its units do not matter', () => {
    const a = scoreCandidates([c('a', { coListening: 10 }), c('b', { coListening: 5 })]);
    const b = scoreCandidates([c('a', { coListening: 0.1 }), c('b', { coListening: 0.05 })]);
    expect(a.get('a')).toBeCloseTo(b.get('a')!);
    expect(a.get('b')).toBeCloseTo(b.get('b')!);
    expect(a.get('a')).toBeCloseTo(1);
  });

  it('keeps the popularity order for a listener without history (cold start)', () => {
    const ranked = rankCandidates(
      [
        c('third', { popularityRank: 2 }),
        c('first', { popularityRank: 0 }),
        c('second', { popularityRank: 1 }),
      ],
      { limit: 2, personal: false, perArtist: 1 },
    );
    expect(ranked).toEqual(['first', 'second']);
  });

  it('lets one artist have at most perArtist songs while others are left, then fills', () => {
    const same = (id: string, cf: number) => c(id, { artistKey: 'x', coListening: cf });
    const ranked = rankCandidates(
      [same('x1', 9), same('x2', 8), same('x3', 7), c('y', { coListening: 1 })],
      { limit: 4, personal: true, perArtist: 2 },
    );
    expect(ranked).toEqual(['x1', 'x2', 'y', 'x3']);
  });

  it('lists each song once and no more than the limit', () => {
    const ranked = rankCandidates([c('a'), c('a'), c('b'), c('c')], {
      limit: 2,
      personal: true,
      perArtist: 3,
    });
    expect(ranked).toHaveLength(2);
    expect(new Set(ranked).size).toBe(2);
  });

  it('names the dominant genre only when it is most of the mix', () => {
    expect(dominantGenre(['Jazz', 'jazz ', 'Rock'])).toBe('Jazz');
    expect(dominantGenre(['Jazz', 'Rock', null, 'Pop'])).toBeNull();
    expect(dominantGenre([])).toBeNull();
    expect(aiMixTitle('hip hop', new Date('2026-11-29T05:00:00Z'))).toBe('Hip Hop Mix · Nov 29');
    expect(aiMixTitle(null, new Date('2026-01-02T00:00:00Z'))).toBe('Your AI Mix · Jan 2');
  });
});
