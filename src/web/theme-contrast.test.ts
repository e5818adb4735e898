// Muted text (hints, times, secondary lines) must stay readable, WCAG AA 4.5:1, on every
// surface it sits on, also where a list is dimmed to 70 % while fresh results load (the
// search page): computed from the theme's own tokens in styles.css.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = fs.readFileSync(new URL('./styles.css', import.meta.url), 'utf8');

function token(name: string): [number, number, number] {
  const m = new RegExp(`--${name}:\\s*oklch\\(([\\d.]+) ([\\d.]+) ([\\d.]+)\\)`).exec(css);
  if (!m) throw new Error(`no oklch token --${name}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** OKLCH → linear sRGB (Björn Ottosson's matrices), clipped to the gamut. */
function linearRgb([L, C, h]: [number, number, number]): number[] {
  const a = C * Math.cos((h * Math.PI) / 180);
  const b = C * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map((x) => Math.min(1, Math.max(0, x)));
}

const encode = (x: number) => (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055);
const decode = (x: number) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;

/** The text colour as the browser paints it at `alpha` over `surface` (blended in sRGB). */
function painted(text: number[], surface: number[], alpha: number): number[] {
  return text.map((t, i) => decode(alpha * encode(t) + (1 - alpha) * encode(surface[i]!)));
}

function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('muted text contrast', () => {
  const muted = linearRgb(token('muted-foreground'));
  const surfaces = ['background', 'card', 'popover', 'secondary', 'muted', 'accent', 'sidebar'];

  it.each(surfaces)('is at least 4.5:1 on --%s, solid and dimmed to 70 percent', (name) => {
    const surface = linearRgb(token(name));
    expect(contrast(muted, surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(painted(muted, surface, 0.7), surface)).toBeGreaterThanOrEqual(4.5);
  });
});
