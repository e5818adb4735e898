import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { Font } from 'opentype.js';
import {
  contentWords,
  hashText,
  pick,
  randomFor,
  type Random,
} from '../../../core/ai/seeded-random.ts';
import { COVER_SIZE } from '../../../core/validation/ai.rules.ts';

/**
 * Offline cover art (product §9): a square PNG whose palette, shapes and title come from the
 * prompt's words, the same for the same prompt and seed. The title is drawn as glyph outlines
 * from a font shipped in node_modules, so no system font is needed.
 */
const FONT_FILE = '@fontsource/oswald/files/oswald-latin-700-normal.woff';
let fontLoading: Promise<Font> | undefined;

function loadFont(): Promise<Font> {
  fontLoading ??= (async () => {
    const file = createRequire(import.meta.url).resolve(FONT_FILE);
    const bytes = await fs.readFile(file);
    const mod = (await import('opentype.js')) as unknown as {
      parse?: (b: ArrayBuffer) => Font;
      default: { parse: (b: ArrayBuffer) => Font };
    };
    const parse = mod.parse ?? mod.default.parse;
    return parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  })();
  fontLoading.catch(() => (fontLoading = undefined));
  return fontLoading;
}

/**
 * Glyph by glyph, without the font's shaping tables (opentype.js refuses some of them): upper-
 * case Latin needs only advances and kerning.
 */
function layout(font: Font, text: string, size: number) {
  const scale = size / font.unitsPerEm;
  const glyphs = [...text].map((c) => font.charToGlyph(c));
  const offsets: number[] = [];
  let x = 0;
  glyphs.forEach((g, i) => {
    offsets.push(x);
    x += (g.advanceWidth ?? 0) * scale;
    const next = glyphs[i + 1];
    if (next) x += font.getKerningValue(g, next) * scale;
  });
  return {
    width: x,
    path: (left: number, baseline: number) =>
      glyphs.map((g, i) => g.getPath(left + offsets[i]!, baseline, size).toPathData(1)).join(' '),
  };
}

const hsl = (h: number, s: number, l: number) =>
  `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(l)}%)`;

type Palette = { background: string; colors: string[]; ink: string; band: string };

function paletteOf(random: Random, words: string[]): Palette {
  const base = (hashText(words.join(' ')) + Math.floor(random() * 60)) % 360;
  const offsets = pick(random, [
    [0, 30, 60, 90], // analogous
    [0, 180, 30, 210], // complementary
    [0, 120, 240, 60], // triadic
    [0, 150, 210, 20], // split
  ]);
  const dark = random() < 0.6;
  const colors = offsets.map((o, i) =>
    hsl(base + o, 55 + random() * 40, dark ? 45 + i * 8 : 35 + i * 6),
  );
  return {
    background: hsl(base + 200, 35 + random() * 20, dark ? 10 + random() * 8 : 88 + random() * 6),
    colors,
    ink: dark ? '#ffffff' : '#111111',
    band: dark ? 'rgba(0,0,0,0.45)' : 'rgba(255,255,255,0.55)',
  };
}

/** A shape for a word: its kind from the word itself, its place from the seed. */
function shapeFor(random: Random, word: string, palette: Palette): string {
  const fill = pick(random, palette.colors);
  const opacity = (0.55 + random() * 0.4).toFixed(2);
  const x = Math.round(random() * COVER_SIZE);
  const y = Math.round(random() * COVER_SIZE * 0.8);
  const r = Math.round(80 + random() * 420);
  switch (hashText(word) % 5) {
    case 0:
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="${opacity}"/>`;
    case 1:
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${fill}" stroke-width="${Math.round(20 + random() * 60)}" opacity="${opacity}"/>`;
    case 2: {
      const angle = Math.round(random() * 90);
      return `<rect x="${x - r / 2}" y="${y - r / 2}" width="${r}" height="${r}" fill="${fill}" opacity="${opacity}" transform="rotate(${angle} ${x} ${y})"/>`;
    }
    case 3: {
      const pts = [0, 1, 2].map((i) => {
        const a = (i * 2 * Math.PI) / 3 + random();
        return `${Math.round(x + r * Math.cos(a))},${Math.round(y + r * Math.sin(a))}`;
      });
      return `<polygon points="${pts.join(' ')}" fill="${fill}" opacity="${opacity}"/>`;
    }
    default: {
      const amp = Math.round(40 + random() * 120);
      const step = Math.round(COVER_SIZE / 4);
      let d = `M0 ${y}`;
      for (let i = 0; i < 4; i++) d += ` q${step / 2} ${i % 2 ? amp : -amp} ${step} 0`;
      return `<path d="${d}" fill="none" stroke="${fill}" stroke-width="${Math.round(16 + random() * 40)}" stroke-linecap="round" opacity="${opacity}"/>`;
    }
  }
}

/** Up to two lines of the prompt's words, each at most ~18 characters. */
function titleLines(words: string[]): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of words.slice(0, 4)) {
    const next = current ? `${current} ${word}` : word;
    if (next.length <= 18 || !current) current = next;
    else {
      lines.push(current);
      current = word;
      if (lines.length === 2) break;
    }
  }
  if (current && lines.length < 2) lines.push(current);
  return lines.map((l) => l.toUpperCase().slice(0, 24));
}

/** The cover as an SVG document: background, one shape per word and more, the title. */
export async function coverSvg(prompt: string, seed: number): Promise<string> {
  const font = await loadFont();
  const random = randomFor(prompt, seed, 'cover');
  const words = contentWords(prompt);
  const theme = words.length > 0 ? words : ['untitled'];
  const palette = paletteOf(random, theme);
  const shapes: string[] = [];
  const count = 8 + Math.floor(random() * 8);
  for (let i = 0; i < count; i++) shapes.push(shapeFor(random, theme[i % theme.length]!, palette));

  const lines = titleLines(theme);
  const maxWidth = COVER_SIZE - 200;
  const size = Math.min(
    220,
    ...lines.map((l) => (maxWidth * 100) / Math.max(1, layout(font, l, 100).width)),
  );
  const lineHeight = size * 1.1;
  const bandHeight = lines.length * lineHeight + 120;
  const bandTop = COVER_SIZE - bandHeight - 60;
  const glyphs = lines.map((l, i) => {
    const text = layout(font, l, size);
    const baseline = bandTop + 60 + size * 0.95 + i * lineHeight;
    return text.path((COVER_SIZE - text.width) / 2, baseline);
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_SIZE}" height="${COVER_SIZE}" viewBox="0 0 ${COVER_SIZE} ${COVER_SIZE}">`,
    `<rect width="${COVER_SIZE}" height="${COVER_SIZE}" fill="${palette.background}"/>`,
    ...shapes,
    `<rect x="60" y="${bandTop}" width="${COVER_SIZE - 120}" height="${bandHeight}" rx="24" fill="${palette.band}"/>`,
    `<path d="${glyphs.join(' ')}" fill="${palette.ink}"/>`,
    '</svg>',
  ].join('');
}

/** The cover as PNG bytes, COVER_SIZE pixels square. */
export async function renderCover(prompt: string, seed: number): Promise<Buffer> {
  const svg = await coverSvg(prompt, seed);
  return sharp(Buffer.from(svg), { density: 72 })
    .resize(COVER_SIZE, COVER_SIZE)
    .png({ compressionLevel: 6 })
    .toBuffer();
}
