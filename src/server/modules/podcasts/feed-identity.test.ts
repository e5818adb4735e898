import { describe, expect, it } from 'vitest';
import { feedUrlOf, podcastGuidOf, uuidV5 } from './feed-identity.ts';

describe('podcast feed identity', () => {
  it('is RFC 4122 UUIDv5 (the RFC namespace for DNS names, as Python computes it)', () => {
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it('derives podcast:guid as other Podcasting 2.0 tools do: scheme and trailing slashes dropped', () => {
    // Published guids of real feeds, made by other tools from these URLs.
    expect(podcastGuidOf('https://bigal.github.io/breakfast-wrap-feed/breakfast-wrap.xml')).toBe(
      'f95d7b89-e1ee-554c-be7f-f126f0b92dae',
    );
    expect(podcastGuidOf('http://smartnuf.github.io/stanford-cs229-audio/feed.xml//')).toBe(
      '469b7cc4-06ab-5668-9474-0d72dac20367',
    );
  });

  it("gives each show's feed URL its own guid", () => {
    const a = feedUrlOf('https://canto.example', '00000000-0000-4000-8000-000000000001');
    expect(a).toBe(
      'https://canto.example/api/podcasts/00000000-0000-4000-8000-000000000001/feed.xml',
    );
    expect(podcastGuidOf(a)).toBe('12dce7fe-a099-56b2-846f-8249146e5bb8');
    expect(
      podcastGuidOf(feedUrlOf('https://canto.example', '00000000-0000-4000-8000-000000000002')),
    ).not.toBe(podcastGuidOf(a));
  });
});
