import { describe, expect, it } from 'vitest';
import { renderCover } from './covers.ts';

describe('demo covers', () => {
  it('is a square SVG with the title, deterministic per seed', () => {
    const a = renderCover({ seed: 's', title: 'Neon Afternoon', subtitle: 'Nova Lumen' });
    expect(a).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="600"/);
    expect(a.endsWith('</svg>')).toBe(true);
    expect(a).toContain('>Neon Afternoon<');
    expect(a).toContain('>Nova Lumen<');
    expect(renderCover({ seed: 's', title: 'Neon Afternoon', subtitle: 'Nova Lumen' })).toBe(a);
    expect(renderCover({ seed: 't', title: 'Neon Afternoon', subtitle: 'Nova Lumen' })).not.toBe(a);
  });

  it('escapes markup in titles so a cover can never carry script', () => {
    const svg = renderCover({ seed: 'x', title: '<script>alert("x")</script> & Co' });
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(svg).toContain('&amp; Co');
  });

  it('wraps long titles to two lines with an ellipsis', () => {
    const svg = renderCover({
      seed: 'w',
      title: 'A very long title that keeps going well past two lines of text',
    });
    expect(svg.match(/font-size="46"/g)).toHaveLength(2);
    expect(svg).toContain('…');
  });
});
