import fc from 'fast-check';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { attr, renderRssFeed, rfc2822, text, type FeedChannel, type FeedItem } from './feed-xml.ts';

const channel: FeedChannel = {
  title: 'Night & Day <Radio>',
  description: 'Talk "about" music',
  link: 'https://canto.test/podcasts?show=s1',
  feedUrl: 'https://canto.test/api/podcasts/s1/feed.xml',
  language: 'pt-BR',
  imageUrl: 'https://canto.test/media/cover-art/x.webp?a=1&b=2',
  author: 'Ana & Ben',
  ownerName: 'Ana & Ben',
  ownerEmail: 'shows@ana.test',
  category: 'Health & Fitness',
  explicit: true,
  guid: '917393e3-1b1e-5cef-ace4-edaa54e1f810',
  lastBuildDate: new Date('2030-03-05T14:07:09Z'),
};

const item = (over: Partial<FeedItem> = {}): FeedItem => ({
  guid: 'e1',
  title: 'Episode',
  description: null,
  enclosure: { url: 'https://canto.test/api/episodes/e1/audio', length: 1234, type: 'audio/mpeg' },
  pubDate: new Date('2030-01-02T03:04:05Z'),
  durationSeconds: 61.6,
  episodeNumber: 3,
  imageUrl: null,
  ...over,
});

const parse = (xml: string) =>
  new Parser<Record<string, unknown>, Record<string, unknown>>().parseString(xml);

describe('feed XML', () => {
  it('escapes text and attributes so they parse back as typed', async () => {
    const title = `<script>alert("x")</script> & 'quotes' ]]> done`;
    const xml = renderRssFeed(channel, [
      item({ title, description: 'Line one\nLine <b>two</b> & three' }),
    ]);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(']]>');
    const feed = await parse(xml);
    expect(feed.title).toBe(channel.title);
    expect(feed.description).toBe(channel.description);
    expect(feed.image?.url).toBe(channel.imageUrl);
    expect(feed.itunes?.categories).toEqual(['Health & Fitness']);
    expect(feed.itunes?.author).toBe('Ana & Ben');
    expect(feed.items[0]!.title).toBe(title);
    expect(feed.items[0]!.content).toBe('Line one\nLine <b>two</b> & three');
  });

  it('drops what XML 1.0 forbids and keeps the rest of any text (property)', async () => {
    const allowed = (s: string) =>
      s.replace(
        // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
        /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
        '',
      );
    // Whole code points, and raw UTF-16 units (lone surrogates, C0/C1 controls among them).
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
        .map((units) => String.fromCharCode(...units)),
    );
    await fc.assert(
      fc.asyncProperty(anyText, async (s) => {
        // Leading/trailing whitespace and CR are the XML parser's to normalise; keep them out.
        const title = `[${s.replace(/\r/g, '')}]`;
        const feed = await parse(renderRssFeed(channel, [item({ title })]));
        expect(feed.items[0]!.title).toBe(allowed(title));
      }),
      { numRuns: 60 },
    );
  });

  it('writes the enclosure, guid, RFC 2822 date, whole-second duration and episode number', () => {
    const xml = renderRssFeed(channel, [item({ imageUrl: 'https://canto.test/e.png' })]);
    expect(xml).toContain(
      '<enclosure url="https://canto.test/api/episodes/e1/audio" length="1234" type="audio/mpeg"/>',
    );
    expect(xml).toContain('<guid isPermaLink="false">e1</guid>');
    expect(xml).toContain('<pubDate>Wed, 02 Jan 2030 03:04:05 +0000</pubDate>');
    expect(xml).toContain('<itunes:duration>62</itunes:duration>');
    expect(xml).toContain('<itunes:episode>3</itunes:episode>');
    expect(xml).toContain('<itunes:image href="https://canto.test/e.png"/>');
    expect(xml).toContain('<itunes:category text="Health &amp; Fitness"/>');
    expect(xml).toContain('<itunes:explicit>true</itunes:explicit>');
    expect(xml).toContain(
      '<atom:link href="https://canto.test/api/podcasts/s1/feed.xml" rel="self" type="application/rss+xml"/>',
    );
    // No description and no duration: the elements are left out, not written empty.
    const bare = renderRssFeed(channel, [item({ durationSeconds: null })]);
    expect(bare).not.toContain('itunes:duration');
    expect(bare.match(/<description>/g)).toHaveLength(1);
  });

  it("names the owner's e-mail in itunes:owner when the creator set one, and none otherwise", async () => {
    const feed = await parse(renderRssFeed(channel, []));
    expect(feed.itunes?.owner).toEqual({ name: 'Ana & Ben', email: 'shows@ana.test' });
    const without = renderRssFeed({ ...channel, ownerEmail: null }, []);
    expect(without).toContain(
      '<itunes:owner><itunes:name>Ana &amp; Ben</itunes:name></itunes:owner>',
    );
  });

  it('formats RFC 2822 dates in UTC with a numeric zone', () => {
    expect(rfc2822(new Date('2029-12-31T23:59:59.999Z'))).toBe('Mon, 31 Dec 2029 23:59:59 +0000');
    expect(rfc2822(new Date('2030-07-04T00:00:00+02:00'))).toBe('Wed, 03 Jul 2030 22:00:00 +0000');
  });

  it('escapes each special character once', () => {
    expect(text(`a&b<c>d"e'f\u0001`)).toBe(`a&amp;b&lt;c&gt;d"e'f`);
    expect(attr(`a&b<c>d"e'f\tg\nh`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f&#9;g&#10;h');
  });
});
