import crypto from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { coverSvg, renderCover } from './local-cover.ts';

const digest = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('the offline cover renderer', () => {
  it('renders a 1400×1400 PNG', async () => {
    const png = await renderCover('a song about the ocean at night', 1);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1400, height: 1400 });
    // Small enough to be an upload's cover art (at most 5 MB).
    expect(png.length).toBeLessThan(5 * 1024 * 1024);
  });

  it('draws the title as outlines from the shipped font, never as text a system font must draw', async () => {
    const svg = await coverSvg('electric dreams', 2);
    expect(svg).not.toMatch(/<text\b/);
    expect(svg).toMatch(/<path d="M[^"]{200,}" fill="#(fff|ffffff|111111)"/);
    // The title's pixels are there: the band around it is not one flat colour.
    const { data, info } = await sharp(await renderCover('electric dreams', 2))
      .extract({ left: 100, top: 1100, width: 1200, height: 200 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels) colours.add(data.readUIntBE(i, 3));
    expect(colours.size).toBeGreaterThan(10);
  });

  it('is the same image for the same prompt and seed, another for another prompt or seed', async () => {
    const a = digest(await renderCover('Summer love in the city', 9));
    expect(digest(await renderCover('summer love  in the city', 9))).toBe(a);
    expect(digest(await renderCover('Summer love in the city', 10))).not.toBe(a);
    expect(digest(await renderCover('Winter hate in the village', 9))).not.toBe(a);
    // Different words, different palette: the mean colour moves.
    const mean = async (p: string) =>
      (await sharp(await renderCover(p, 9)).stats()).channels.map((c) => Math.round(c.mean));
    expect(await mean('Summer love in the city')).not.toEqual(
      await mean('Winter hate in the village'),
    );
  });
});
