/**
 * A podcast's RSS 2.0 document (docs/decisions/0019): the channel and its items with the itunes and
 * podcast namespaces, as podcast apps and directories read them. Pure: no I/O, every URL
 * already absolute. All text goes through `text`/`attr`, so a title like `<script>` or `&`
 * comes back from any XML parser exactly as typed, and nothing XML 1.0 forbids (control
 * characters, lone surrogates) can make the document unreadable.
 */

export const ITUNES_NS = 'http://www.itunes.com/dtds/podcast-1.0.dtd';
export const PODCAST_NS = 'https://podcastindex.org/namespace/1.0';
export const ATOM_NS = 'http://www.w3.org/2005/Atom';

export type FeedChannel = {
  title: string;
  description: string;
  /** The show's page in the web app. */
  link: string;
  /** This document's own URL (atom:link rel=self). */
  feedUrl: string;
  /** BCP 47, e.g. en or pt-BR. */
  language: string;
  imageUrl: string;
  author: string;
  /** itunes:owner's name. */
  ownerName: string;
  /** itunes:owner's e-mail, as the creator set it; Apple's directory asks for one. */
  ownerEmail: string | null;
  /** One of Apple's top-level categories (core/validation/podcast.rules.ts). */
  category: string;
  explicit: boolean;
  /** podcast:guid */
  guid: string;
  lastBuildDate: Date;
};

export type FeedItem = {
  /** Never changes: podcast apps key downloads and played state by it. */
  guid: string;
  title: string;
  description: string | null;
  enclosure: { url: string; length: number; type: string };
  pubDate: Date;
  durationSeconds: number | null;
  episodeNumber: number;
  imageUrl: string | null;
};

// What XML 1.0 does not allow (C0 controls but tab, LF, CR; U+FFFE/U+FFFF; lone surrogates)
// plus DEL and the C1 controls, which it allows but discourages and no title needs.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Character data: `&`, `<` and `>` (so `]]>` cannot appear) escaped, forbidden characters dropped. */
export function text(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * A double-quoted attribute value: also quotes escaped, and tab/LF/CR as character
 * references, which attribute-value normalization would otherwise turn into spaces.
 */
export function attr(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** RFC 2822 date-time in UTC with a numeric zone, e.g. `Tue, 05 Mar 2030 14:07:09 +0000`. */
export function rfc2822(date: Date): string {
  return (
    `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ` +
    `${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:` +
    `${two(date.getUTCSeconds())} +0000`
  );
}

const element = (name: string, value: string) => `<${name}>${text(value)}</${name}>`;

function renderItem(item: FeedItem): string {
  const lines = [
    element('title', item.title),
    element('itunes:title', item.title),
    item.description ? element('description', item.description) : null,
    `<enclosure url="${attr(item.enclosure.url)}" length="${Math.max(0, Math.trunc(item.enclosure.length))}" type="${attr(item.enclosure.type)}"/>`,
    `<guid isPermaLink="false">${text(item.guid)}</guid>`,
    element('pubDate', rfc2822(item.pubDate)),
    item.durationSeconds === null
      ? null
      : element('itunes:duration', String(Math.max(0, Math.round(item.durationSeconds)))),
    element('itunes:episode', String(item.episodeNumber)),
    element('itunes:episodeType', 'full'),
    item.imageUrl ? `<itunes:image href="${attr(item.imageUrl)}"/>` : null,
  ];
  return `<item>\n${indent(lines, 6)}\n    </item>`;
}

const indent = (lines: Array<string | null>, spaces: number) =>
  lines
    .filter((l): l is string => l !== null)
    .map((l) => ' '.repeat(spaces) + l)
    .join('\n');

/** The whole feed document, items in the order given (newest first is the caller's job). */
export function renderRssFeed(channel: FeedChannel, items: FeedItem[]): string {
  const head = [
    `<atom:link href="${attr(channel.feedUrl)}" rel="self" type="application/rss+xml"/>`,
    element('title', channel.title),
    element('description', channel.description),
    element('link', channel.link),
    element('language', channel.language),
    element('generator', 'Canto'),
    element('lastBuildDate', rfc2822(channel.lastBuildDate)),
    `<image>${element('url', channel.imageUrl)}${element('title', channel.title)}${element('link', channel.link)}</image>`,
    `<itunes:image href="${attr(channel.imageUrl)}"/>`,
    element('itunes:author', channel.author),
    `<itunes:owner>${element('itunes:name', channel.ownerName)}${
      channel.ownerEmail ? element('itunes:email', channel.ownerEmail) : ''
    }</itunes:owner>`,
    `<itunes:category text="${attr(channel.category)}"/>`,
    element('itunes:explicit', channel.explicit ? 'true' : 'false'),
    element('itunes:type', 'episodic'),
    element('podcast:guid', channel.guid),
  ];
  const body = items.map((item) => `    ${renderItem(item)}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:itunes="${ITUNES_NS}" xmlns:podcast="${PODCAST_NS}" xmlns:atom="${ATOM_NS}">`,
    '  <channel>',
    indent(head, 4),
    ...body,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
