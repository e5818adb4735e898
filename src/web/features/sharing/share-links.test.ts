import { describe, expect, it } from 'vitest';
import { SHARE_KINDS } from '@/contracts/share.contract.ts';
import { embedSnippet, isEmbeddable, shareUrl } from './share-links.ts';

const origin = 'https://canto.example';

describe('share links', () => {
  it('makes the canonical link absolute on the origin, the id encoded', () => {
    expect(shareUrl('song', 'abc', origin)).toBe('https://canto.example/song/abc');
    expect(shareUrl('profile', 'a/b', origin)).toBe('https://canto.example/profile/a%2Fb');
    expect(shareUrl('episode', 'e1', origin, { show: 's1' })).toBe(
      'https://canto.example/episode/e1?show=s1',
    );
  });

  it('embeds songs and playlists only', () => {
    expect(SHARE_KINDS.filter(isEmbeddable)).toEqual(['song', 'playlist']);
  });

  it('sizes the frame by kind and loads it lazily with a title', () => {
    const song = embedSnippet('song', 's1', 'Tide', origin);
    expect(song).toBe(
      '<iframe title="Tide on Canto" src="https://canto.example/embed/song/s1" width="100%" height="152" style="border:0;border-radius:12px" loading="lazy" allow="autoplay; encrypted-media"></iframe>',
    );
    expect(embedSnippet('playlist', 'p1', 'Mix', origin)).toContain('height="352"');
  });

  it('escapes a title that would break out of the attribute', () => {
    const snippet = embedSnippet('song', 's1', '"><script>x</script>', origin);
    expect(snippet).not.toContain('<script>');
    expect(snippet).toContain('title="&quot;&gt;&lt;script&gt;x&lt;/script&gt; on Canto"');
  });
});
