import { seededRandom } from './synth.ts';

/*
 * Demo cover art: a square SVG from a seed — a two-colour gradient, a few translucent
 * shapes and the title. SVG keeps each cover under a few KB and needs no image library.
 */

const SIZE = 600;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Greedy word wrap to at most `maxLines` lines of about `width` characters. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]!.slice(0, width - 1)}…`;
  }
  return lines;
}

export function renderCover({
  seed,
  title,
  subtitle,
}: {
  seed: string;
  title: string;
  subtitle?: string;
}): string {
  const random = seededRandom(`cover:${seed}`);
  const hue = Math.floor(random() * 360);
  const hue2 = (hue + 40 + Math.floor(random() * 120)) % 360;
  const angle = Math.floor(random() * 360);
  const shapes: string[] = [];
  const count = 3 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const x = Math.round(random() * SIZE);
    const y = Math.round(random() * SIZE * 0.7);
    const size = Math.round(60 + random() * 220);
    const fill = `hsl(${(hue + Math.floor(random() * 180)) % 360} 80% ${55 + Math.floor(random() * 25)}%)`;
    const opacity = (0.15 + random() * 0.35).toFixed(2);
    if (random() < 0.5) {
      shapes.push(
        `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}" opacity="${opacity}"/>`,
      );
    } else {
      const rotate = Math.floor(random() * 90);
      shapes.push(
        `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" rx="${Math.round(size / 8)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rotate} ${x} ${y})"/>`,
      );
    }
  }
  const lines = wrap(title, 16, 2);
  const titleY = SIZE - 70 - (lines.length - 1) * 52 - (subtitle ? 36 : 0);
  const text = lines
    .map(
      (l, i) =>
        `<text x="40" y="${titleY + i * 52}" font-size="46" font-weight="700">${escapeXml(l)}</text>`,
    )
    .join('');
  const sub = subtitle
    ? `<text x="40" y="${SIZE - 50}" font-size="26" opacity="0.85">${escapeXml(subtitle)}</text>`
    : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${escapeXml(title)}">`,
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">`,
    `<stop offset="0" stop-color="hsl(${hue} 70% 45%)"/><stop offset="1" stop-color="hsl(${hue2} 65% 22%)"/>`,
    `</linearGradient></defs>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#g)"/>`,
    ...shapes,
    `<g fill="#fff" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">${text}${sub}</g>`,
    `</svg>`,
  ].join('');
}

/**
 * A demo avatar: a square SVG with a gradient and the name's initials (the app crops it round).
 */
export function renderAvatar({ seed, name }: { seed: string; name: string }): string {
  const random = seededRandom(`avatar:${seed}`);
  const hue = Math.floor(random() * 360);
  const hue2 = (hue + 60 + Math.floor(random() * 90)) % 360;
  const initials = name
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w) && w.toLowerCase() !== 'the')
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="hsl(${hue} 70% 45%)"/><stop offset="1" stop-color="hsl(${hue2} 70% 30%)"/>`,
    `</linearGradient></defs>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#g)"/>`,
    `<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="240" font-weight="700" fill="#fff">${escapeXml(initials)}</text>`,
    `</svg>`,
  ].join('');
}
