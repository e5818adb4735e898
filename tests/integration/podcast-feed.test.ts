import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podcastGuidOf } from '../../src/server/modules/podcasts/podcasts.module.ts';
import { createStorage } from '../../src/server/storage/create-storage.ts';
import type { Storage } from '../../src/server/storage/storage.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import sharp from 'sharp';
import { createShow, sendShow, showDetail } from './podcasts-helpers.ts';
import { makePng, makeUser, makeWav, rows } from './songs-helpers.ts';

/**
 * docs/decisions/0019: each show's public RSS feed, read by real parsers (the Podcast Index's
 * podcast-partytime and the common rss-parser) as podcast apps read it, and the episodes'
 * public enclosure URLs: bytes with Range, no session, one download per GET from byte 0.
 * Rows are seeded in SQL and files put in storage, as the podcasts module's upload leaves them.
 */

// partytime logs through its own pino at warn (an empty feed, for one); its switch is read at
// import, so it is imported once that is set.
process.env.PARTYTIME_LOG ??= 'silent';
const { parseFeed } = await import('podcast-partytime');

const HOSTILE_TITLE = `<script>alert("x")</script> & Co's "best" ]]> episode`;
const rssParser = new Parser<Record<string, unknown>, Record<string, unknown>>({
  customFields: { feed: ['podcast:guid', 'atom:link'] as never[] },
});

type Episode = { id: string; bytes: Buffer; key: string };

const TYPES = { wav: 'audio/wav', flac: 'audio/flac', mp3: 'audio/mpeg', m4a: 'audio/mp4' };
type Format = keyof typeof TYPES;

async function putAudio(storage: Storage, bytes: Buffer, format: Format): Promise<string> {
  const key = `${crypto.randomUUID()}.${format}`;
  await storage.put('podcasts', key, Readable.from([bytes]), {
    contentType: TYPES[format],
    maxBytes: bytes.length,
  });
  return key;
}

async function seedShow(
  ctx: TestContext,
  creatorId: string,
  fields: {
    title: string;
    cover?: string | null;
    feedGuid?: string | null;
    ownerEmail?: string | null;
  },
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into podcasts (creator_id, title, description, cover_art_url, language, category,
          explicit, feed_guid, owner_email, created_at)
        values (${creatorId}, ${fields.title}, ${'Talk & <music>'}, ${fields.cover ?? null},
          'pt-BR', 'Health & Fitness', true, ${fields.feedGuid ?? null},
          ${fields.ownerEmail ?? null}, '2029-06-01T00:00:00Z')
        returning id`,
  );
  return row!.id;
}

async function seedEpisode(
  ctx: TestContext,
  storage: Storage,
  podcastId: string,
  fields: {
    title: string;
    number: number;
    publishedAt: string;
    durationMs: number | null;
    /** Rows as older code left them: a bare key, no size or type (the demo seed's). */
    legacy?: boolean;
    description?: string | null;
    /** The original's format; WAV by default (an upload's). */
    format?: Format;
  },
): Promise<Episode> {
  const format = fields.format ?? 'wav';
  // Only WAV is decoded here; the other formats are bytes a feed names, never plays.
  const bytes =
    format === 'wav'
      ? makeWav(0.25 + fields.number / 10)
      : crypto.randomBytes(2000 + fields.number * 100);
  const key = await putAudio(storage, bytes, format);
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into podcast_episodes (podcast_id, title, description, audio_url, audio_key,
          duration_ms, episode_number, published_at, audio_bytes, audio_mime)
        values (${podcastId}, ${fields.title}, ${fields.description ?? null},
          ${`/media/podcasts/${key}`},
          ${fields.legacy ? key : `podcasts/${key}`}, ${fields.durationMs}, ${fields.number},
          ${fields.publishedAt}, ${fields.legacy ? null : bytes.length},
          ${fields.legacy ? null : TYPES[format]})
        returning id`,
  );
  return { id: row!.id, bytes, key };
}

/** The AAC rendition the media pipeline makes of an episode (a stand-in file of its own size). */
async function seedAacRendition(
  ctx: TestContext,
  storage: Storage,
  episodeId: string,
): Promise<Episode> {
  const bytes = crypto.randomBytes(1500);
  const key = await putAudio(storage, bytes, 'm4a');
  await rows(
    ctx,
    sql`insert into podcast_episode_renditions (episode_id, format, codec, mime, bitrate_kbps,
          file_url, file_key, bytes, duration_ms)
        values (${episodeId}, 'aac-128', 'aac', 'audio/mp4; codecs=mp4a.40.2', 128,
          ${`/media/podcasts/${key}`}, ${`podcasts/${key}`}, ${bytes.length}, 1000)`,
  );
  return { id: episodeId, bytes, key };
}

async function downloads(ctx: TestContext, episodeId: string): Promise<number> {
  const [row] = await rows<{ n: string | number }>(
    ctx,
    sql`select download_count as n from podcast_episodes where id = ${episodeId}`,
  );
  return Number(row!.n);
}

/** A path the app answers, from an absolute URL the feed names. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe.each(dbKinds)('podcast feed on %s', (kind) => {
  const ctx = useTestApp(kind);
  let storage: Storage;
  let showId: string;
  let creatorId: string;
  let first: Episode;
  /** first's AAC rendition: its enclosure. */
  let firstAac: Episode;
  let second: Episode;
  let legacy: Episode;
  /** WAV and FLAC originals whose AAC rendition is not made yet: no enclosure apps take. */
  let waiting: Episode[];
  const feedPath = (id: string) => `/api/podcasts/${id}/feed.xml`;
  const fetchFeed = (id: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url: feedPath(id), headers });

  beforeAll(async () => {
    storage = await createStorage(ctx.env);
    const artist = await makeUser(ctx, 'artist', 'Ana & <Owls>');
    creatorId = artist.userId;
    const coverKey = `${crypto.randomUUID()}.webp`;
    showId = await seedShow(ctx, creatorId, {
      title: 'Night & Day <Radio>',
      cover: `/media/cover-art/${coverKey}`,
      ownerEmail: 'owner@owls.test',
    });
    first = await seedEpisode(ctx, storage, showId, {
      title: HOSTILE_TITLE,
      number: 1,
      publishedAt: '2030-01-01T10:00:00Z',
      durationMs: 61_600,
      description: 'Notes & <b>links</b>\u0007',
    });
    firstAac = await seedAacRendition(ctx, storage, first.id);
    second = await seedEpisode(ctx, storage, showId, {
      title: 'Second',
      number: 2,
      publishedAt: '2030-02-01T10:00:00Z',
      durationMs: 125_000,
      format: 'mp3',
    });
    legacy = await seedEpisode(ctx, storage, showId, {
      title: 'Before sizes were kept',
      number: 7,
      publishedAt: '2029-12-01T10:00:00Z',
      durationMs: null,
      legacy: true,
      format: 'mp3',
    });
    waiting = [
      await seedEpisode(ctx, storage, showId, {
        title: 'Still transcoding',
        number: 3,
        publishedAt: '2030-03-01T10:00:00Z',
        durationMs: 1000,
      }),
      await seedEpisode(ctx, storage, showId, {
        title: 'Lossless',
        number: 4,
        publishedAt: '2030-03-02T10:00:00Z',
        durationMs: 1000,
        format: 'flac',
      }),
    ];
    // Audio that is not a file of ours, and another show's episode: neither is an item.
    await rows(
      ctx,
      sql`insert into podcast_episodes (podcast_id, title, audio_url, episode_number)
          values (${showId}, 'External', 'https://elsewhere.test/x.mp3', 9)`,
    );
    const otherShow = await seedShow(ctx, creatorId, { title: 'Other show' });
    await seedEpisode(ctx, storage, otherShow, {
      title: 'Not here',
      number: 1,
      publishedAt: '2030-03-01T00:00:00Z',
      durationMs: 1000,
    });
  });
  afterAll(() => storage?.close());

  it('serves RSS 2.0 without a session that podcast parsers read field by field', async () => {
    const res = await fetchFeed(showId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.body).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    expect(res.body).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
    // The description's BEL is not XML: dropped, the rest kept.
    expect(res.body).not.toContain('\u0007');
    const publicUrl = ctx.env.publicUrl;
    const feedUrl = `${publicUrl}${feedPath(showId)}`;

    const feed = parseFeed(res.body);
    expect(feed).not.toBeNull();
    expect(feed!.title).toBe('Night & Day <Radio>');
    expect(feed!.description).toBe('Talk & <music>');
    expect(feed!.link).toBe(`${publicUrl}/podcasts?show=${showId}`);
    expect(feed!.language).toBe('pt-BR');
    // The cover as Apple's directory wants it (its route is tested below).
    expect(feed!.itunesImage).toBe(`${publicUrl}/api/podcasts/${showId}/artwork.jpg`);
    expect(feed!.author).toBe('Ana & <Owls>');
    expect(feed!.itunesCategory).toEqual(['Health & Fitness']);
    expect(feed!.explicit).toBe(true);
    expect(feed!.guid).toBe(podcastGuidOf(feedUrl));
    expect(feed!.pubsub?.self).toBe(feedUrl);

    // Newest published first; the external and the other show's episodes are left out, and
    // so are those with only a WAV or FLAC yet.
    expect(feed!.items.map((i) => i.guid)).toEqual([second.id, first.id, legacy.id]);
    for (const episode of waiting) expect(res.body).not.toContain(episode.id);
    const [two, one, old] = feed!.items;
    expect(one!.title).toBe(HOSTILE_TITLE);
    expect(one!.description).toBe('Notes & <b>links</b>');
    // A WAV upload is enclosed as its AAC rendition, with the rendition's own size.
    expect(one!.enclosure).toEqual({
      url: `${publicUrl}/api/episodes/${first.id}/audio`,
      length: firstAac.bytes.length,
      type: 'audio/x-m4a',
    });
    // An MP3 upload is enclosed as it is.
    expect(two!.enclosure).toEqual({
      url: `${publicUrl}/api/episodes/${second.id}/audio`,
      length: second.bytes.length,
      type: 'audio/mpeg',
    });
    // No enclosure podcast apps refuse, anywhere in the feed.
    expect(res.body).not.toMatch(/audio\/(wav|x-wav|wave|flac|ogg|webm)/);
    expect(one!.duration).toBe(62);
    expect(one!.itunesEpisode).toBe(1);
    expect(one!.pubDate?.toISOString()).toBe('2030-01-01T10:00:00.000Z');
    expect(two!.duration).toBe(125);
    expect(two!.itunesEpisode).toBe(2);
    // Size read off the stored file, type off its name; no duration known, so none claimed.
    expect(old!.enclosure).toEqual({
      url: `${publicUrl}/api/episodes/${legacy.id}/audio`,
      length: legacy.bytes.length,
      type: 'audio/mpeg',
    });
    expect(res.body).toMatch(
      new RegExp(
        `<guid isPermaLink="false">${legacy.id}</guid>\\s*<pubDate>[^<]+</pubDate>\\s*<itunes:episode>`,
      ),
    );

    // The common RSS parser agrees, and gives back the hostile title verbatim.
    const rss = await rssParser.parseString(res.body);
    expect(rss.title).toBe('Night & Day <Radio>');
    expect(rss.items.map((i) => i.title)).toEqual([
      'Second',
      HOSTILE_TITLE,
      'Before sizes were kept',
    ]);
    expect(rss.items[1]!.guid).toBe(first.id);
    expect(rss.items[1]!.pubDate).toBe('Tue, 01 Jan 2030 10:00:00 +0000');
    expect(rss.items[1]!.enclosure).toEqual({
      url: `${publicUrl}/api/episodes/${first.id}/audio`,
      length: String(firstAac.bytes.length),
      type: 'audio/x-m4a',
    });
    // itunes:owner names the creator and the e-mail the creator set for the show.
    expect(rss.itunes?.owner).toEqual({ name: 'Ana & <Owls>', email: 'owner@owls.test' });
    expect(rss.itunes?.explicit).toBe('true');
    expect(rss.itunes?.categories).toEqual(['Health & Fitness']);
  });

  it('keeps podcast:guid as UUIDv5 of the feed URL, stored once, and a stored one as it is', async () => {
    const feedUrl = `${ctx.env.publicUrl}${feedPath(showId)}`;
    const guidOf = async (id: string) => parseFeed((await fetchFeed(id)).body)!.guid;
    const once = await guidOf(showId);
    expect(once).toBe(podcastGuidOf(feedUrl));
    expect(await guidOf(showId)).toBe(once);
    const [row] = await rows<{ feed_guid: string }>(
      ctx,
      sql`select feed_guid from podcasts where id = ${showId}`,
    );
    expect(row!.feed_guid).toBe(once);

    // A show whose guid was fixed under another URL keeps it: a moved feed is the same show.
    const fixed = '11111111-2222-5333-8444-555555555555';
    const moved = await seedShow(ctx, creatorId, { title: 'Moved', feedGuid: fixed });
    expect(await guidOf(moved)).toBe(fixed);
  });

  it("uses the app's square default image for a show without a raster cover", async () => {
    const bare = await seedShow(ctx, creatorId, { title: 'No cover' });
    const svg = await seedShow(ctx, creatorId, {
      title: 'SVG cover',
      cover: `/media/cover-art/${crypto.randomUUID()}.svg`,
    });
    for (const id of [bare, svg]) {
      const feed = parseFeed((await fetchFeed(id)).body)!;
      expect(feed.itunesImage).toBe(`${ctx.env.publicUrl}/podcast-cover.jpg`);
      expect(feed.items).toEqual([]);
    }
  });

  it("serves a show's cover as the square 1400 px JPEG Apple's directory wants, at the feed's itunes:image", async () => {
    const artist = await makeUser(ctx, 'artist', 'Artwork Maker');
    // A wide cover: stored as a WebP of at most 1000 px, served whole on a square.
    const show = await createShow(ctx, artist, { title: 'Wide Cover' }, await makePng(600, 300));
    const feed = parseFeed((await fetchFeed(show.id)).body)!;
    const artworkUrl = `${ctx.env.publicUrl}/api/podcasts/${show.id}/artwork.jpg`;
    expect(feed.itunesImage).toBe(artworkUrl);

    const res = await ctx.app.inject({ url: local(artworkUrl) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.space]).toEqual([
      'jpeg',
      1400,
      1400,
      'srgb',
    ]);
    // Letterboxed, not cropped: the top rows are the black band, the middle is the picture.
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(700, 10)).toBeLessThan(16);
    expect(at(700, 700)).toBeGreaterThan(150); // the cover's red

    const etag = res.headers.etag as string;
    const again = await ctx.app.inject({
      url: local(artworkUrl),
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A new cover is a new entity tag: the old one no longer matches.
    const edited = await sendShow(
      ctx,
      artist,
      [{ name: 'cover', filename: 'c.png', contentType: 'image/png', data: await makePng(64, 64) }],
      show.id,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const changed = await ctx.app.inject({
      url: local(artworkUrl),
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((await sharp(changed.rawPayload).metadata()).width).toBe(1400);
  });

  it('answers 404 for artwork of no show, of a show without a cover of its own, or whose file is gone', async () => {
    const bare = await seedShow(ctx, creatorId, { title: 'Bare' });
    const svg = await seedShow(ctx, creatorId, {
      title: 'SVG art',
      cover: `/media/cover-art/${crypto.randomUUID()}.svg`,
    });
    const gone = await seedShow(ctx, creatorId, {
      title: 'Gone art',
      cover: `/media/cover-art/${crypto.randomUUID()}.webp`,
    });
    for (const id of [bare, svg, gone, crypto.randomUUID()]) {
      const res = await ctx.app.inject({ url: `/api/podcasts/${id}/artwork.jpg` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const bad = await ctx.app.inject({ url: '/api/podcasts/not-a-show/artwork.jpg' });
    expect(bad.statusCode).toBe(400);
  });

  it('answers If-None-Match with 304 until the feed changes', async () => {
    const show = await seedShow(ctx, creatorId, { title: 'Conditional' });
    const res = await fetchFeed(show);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await fetchFeed(show, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Apps and directories check a feed with HEAD too: same headers, no body.
    const head = await ctx.app.inject({ method: 'HEAD', url: feedPath(show) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(head.headers.etag).toBe(etag);
    expect(head.body).toBe('');

    await seedEpisode(ctx, storage, show, {
      title: 'New',
      number: 1,
      publishedAt: '2030-04-01T00:00:00Z',
      durationMs: 1000,
      format: 'mp3',
    });
    const changed = await fetchFeed(show, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.body)!.items.map((i) => i.title)).toEqual(['New']);
  });

  it('is 404 for a show or episode that does not exist', async () => {
    const missing = crypto.randomUUID();
    const feed = await fetchFeed(missing);
    expect(feed.statusCode).toBe(404);
    expect(feed.json().error).toMatchObject({ code: 'not_found', message: 'Podcast not found' });
    const audio = await ctx.app.inject({ url: `/api/episodes/${missing}/audio` });
    expect(audio.statusCode).toBe(404);
    expect(audio.json().error).toMatchObject({ code: 'not_found', message: 'Episode not found' });
    // An episode whose audio is not a file of ours has no public enclosure either.
    const [external] = await rows<{ id: string }>(
      ctx,
      sql`select id from podcast_episodes where title = 'External'`,
    );
    const none = await ctx.app.inject({ url: `/api/episodes/${external!.id}/audio` });
    expect(none.statusCode).toBe(404);
  });

  it('serves the enclosure without a session, with Range, and counts a GET from byte 0 once per listener a day', async () => {
    const feed = parseFeed((await fetchFeed(showId)).body)!;
    const url = local(feed.items.find((i) => i.guid === second.id)!.enclosure.url);
    const size = second.bytes.length;
    const get = (
      headers: Record<string, string> = {},
      method: 'GET' | 'HEAD' = 'GET',
      remoteAddress = '203.0.113.7',
    ) => ctx.app.inject({ method, url, headers, remoteAddress });
    const start = await downloads(ctx, second.id);

    const full = await get();
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(second.bytes)).toBe(true);
    expect(full.headers['content-type']).toBe('audio/mpeg');
    expect(full.headers['content-length']).toBe(String(size));
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['access-control-allow-origin']).toBe('*');
    expect(full.headers['set-cookie']).toBeUndefined();
    expect(await downloads(ctx, second.id)).toBe(start + 1);

    // A later range (a resumed download, a seek) is the same download.
    const middle = await get({ range: 'bytes=100-199' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(middle.headers['content-length']).toBe('100');
    expect(middle.rawPayload.equals(second.bytes.subarray(100, 200))).toBe(true);
    expect(await downloads(ctx, second.id)).toBe(start + 1);

    // A range from byte 0 starts a download; the two-byte probe before it does not.
    const probe = await get({ range: 'bytes=0-1' });
    expect(probe.statusCode).toBe(206);
    expect(probe.rawPayload.equals(second.bytes.subarray(0, 2))).toBe(true);
    expect(await downloads(ctx, second.id)).toBe(start + 1);
    const fromZero = await get({ range: 'bytes=0-' });
    expect(fromZero.statusCode).toBe(206);
    expect(fromZero.rawPayload.equals(second.bytes)).toBe(true);
    // The same listener (IP and user agent) again the same day: one download, as the IAB
    // guidelines count; another app or another address is another listener.
    expect(await downloads(ctx, second.id)).toBe(start + 1);
    expect((await get({ 'user-agent': 'Overcast/3.0' })).statusCode).toBe(200);
    expect(await downloads(ctx, second.id)).toBe(start + 2);
    expect((await get({ 'user-agent': 'Overcast/3.0' })).statusCode).toBe(200);
    expect((await get({}, 'GET', '198.51.100.4')).statusCode).toBe(200);
    expect(await downloads(ctx, second.id)).toBe(start + 3);
    // Who downloaded is kept as a keyed hash, never the address or the app.
    const kept = await rows<{ listener: string }>(
      ctx,
      sql`select listener from podcast_episode_downloads where episode_id = ${second.id}`,
    );
    expect(kept).toHaveLength(3);
    for (const { listener } of kept) expect(listener).toMatch(/^[\w-]{43}$/);
    // The next UTC day the first listener counts again, and the day before yesterday's
    // records are gone.
    ctx.clock.advance(24 * 60 * 60 * 1000);
    expect((await get()).statusCode).toBe(200);
    expect(await downloads(ctx, second.id)).toBe(start + 4);
    ctx.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await get()).statusCode).toBe(200);
    expect(await downloads(ctx, second.id)).toBe(start + 5);
    expect(
      await rows(ctx, sql`select 1 from podcast_episode_downloads where episode_id = ${second.id}`),
    ).toHaveLength(1);

    // HEAD describes the whole file and counts nothing; neither do 304 and 416.
    const head = await get({}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.body).toBe('');
    const cached = await get({ 'if-none-match': full.headers.etag as string });
    expect(cached.statusCode).toBe(304);
    const past = await get({ range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    const other = '192.0.2.99'; // a listener not seen yet: nothing above counted for them
    expect((await get({}, 'HEAD', other)).statusCode).toBe(200);
    expect(
      (await get({ 'if-none-match': full.headers.etag as string }, 'GET', other)).statusCode,
    ).toBe(304);
    expect((await get({ range: `bytes=${size}-` }, 'GET', other)).statusCode).toBe(416);
    expect(await downloads(ctx, second.id)).toBe(start + 5);

    // Each episode keeps its own count.
    expect(await downloads(ctx, first.id)).toBe(0);
  });

  it('serves the enclosure the feed names: the AAC rendition, never a WAV or FLAC original', async () => {
    const aac = await ctx.app.inject({ url: `/api/episodes/${first.id}/audio` });
    expect(aac.statusCode).toBe(200);
    expect(aac.headers['content-type']).toBe('audio/x-m4a');
    expect(aac.headers['content-length']).toBe(String(firstAac.bytes.length));
    expect(aac.rawPayload.equals(firstAac.bytes)).toBe(true);
    for (const episode of waiting) {
      const res = await ctx.app.inject({ url: `/api/episodes/${episode.id}/audio` });
      expect(res.statusCode).toBe(404);
    }
  });

  it("sets the show's owner e-mail through its settings form, checked as an address", async () => {
    const artist = await makeUser(ctx, 'artist', 'Owner Setter');
    const show = await createShow(ctx, artist, { title: 'Owned', owner_email: 'Me@Owner.test ' });
    expect(show.owner_email).toBe('me@owner.test');
    const ownerOf = async () =>
      (await rssParser.parseString((await fetchFeed(show.id)).body)).itunes?.owner;
    expect(await ownerOf()).toEqual({ name: 'Owner Setter', email: 'me@owner.test' });

    // Not an address: 400 with the field's message, nothing written.
    for (const bad of ['not-an-email', 'a@', `${'x'.repeat(250)}@e.test`]) {
      const res = await sendShow(ctx, artist, [{ name: 'owner_email', value: bad }], show.id);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.message).toBe(
        'Please enter a valid email address for the show owner',
      );
    }
    expect(await ownerOf()).toEqual({ name: 'Owner Setter', email: 'me@owner.test' });

    // Another artist cannot set it; an empty value clears it.
    const other = await makeUser(ctx, 'artist', 'Not The Owner');
    const foreign = await sendShow(
      ctx,
      other,
      [{ name: 'owner_email', value: 'x@y.test' }],
      show.id,
    );
    expect(foreign.statusCode).toBe(403);
    const changed = await sendShow(
      ctx,
      artist,
      [{ name: 'owner_email', value: 'new@owner.test' }],
      show.id,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().owner_email).toBe('new@owner.test');
    const cleared = await sendShow(ctx, artist, [{ name: 'owner_email', value: '' }], show.id);
    expect(cleared.json().owner_email).toBeNull();
    expect(await ownerOf()).toEqual({ name: 'Owner Setter' });
  });

  it('tells the show page PUBLIC_URL is unset, since its feed links name localhost', async () => {
    const artist = await makeUser(ctx, 'artist', 'Public Url');
    const show = await createShow(ctx, artist, { title: 'Where' });
    const detail = await showDetail(ctx, artist, show.id);
    expect(detail.public_url_set).toBe(false);
    expect(detail.podcast.feed_url).toMatch(/^http:\/\/localhost:\d+\//);
  });
});

describe.each(dbKinds)('podcast enclosures behind a media sender on %s', (kind) => {
  // nginx sends media (ADR 0010): the enclosure redirects to a freshly signed /media URL.
  const ctx = useTestApp(kind, { MEDIA_OFFLOAD: 'x-accel', PUBLIC_URL: 'https://canto.test/' });
  let episode: Episode;

  beforeAll(async () => {
    const storage = await createStorage(ctx.env);
    const artist = await makeUser(ctx, 'artist', 'Offloaded');
    const show = await seedShow(ctx, artist.userId, { title: 'Offloaded show' });
    episode = await seedEpisode(ctx, storage, show, {
      title: 'Sent by nginx',
      number: 1,
      publishedAt: '2030-01-01T00:00:00Z',
      durationMs: 1000,
      format: 'mp3',
    });
    await storage.close();
  });

  it('tells the show page PUBLIC_URL is set', async () => {
    const artist = await makeUser(ctx, 'artist', 'Set Url');
    const show = await createShow(ctx, artist, { title: 'Here' });
    const detail = await showDetail(ctx, artist, show.id);
    expect(detail.public_url_set).toBe(true);
    expect(detail.podcast.feed_url).toBe(`https://canto.test/api/podcasts/${show.id}/feed.xml`);
  });

  it('redirects to a signed /media URL that the sender accepts, counting GETs from byte 0', async () => {
    const url = `/api/episodes/${episode.id}/audio`;
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = res.headers.location as string;
    expect(location).toMatch(
      new RegExp(
        `^${ctx.env.publicUrl}/media/podcasts/${episode.key}\\?e=\\d+&s=[\\w-]{43}&n=[\\w-]{22}$`,
      ),
    );
    expect(await downloads(ctx, episode.id)).toBe(1);

    // The signed URL is what nginx is told to send.
    const sent = await ctx.app.inject({ url: local(location) });
    expect(sent.statusCode).toBe(200);
    expect(sent.headers['x-accel-redirect']).toBe(`/_canto_media/podcasts/${episode.key}`);

    const later = await ctx.app.inject({ url, headers: { range: 'bytes=500-' } });
    expect(later.statusCode).toBe(302);
    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(302);
    expect(await downloads(ctx, episode.id)).toBe(1);
    // The same listener from byte 0 again the same day is the same download; another is not.
    const again = await ctx.app.inject({ url, headers: { range: 'bytes=0-' } });
    expect(again.statusCode).toBe(302);
    expect(await downloads(ctx, episode.id)).toBe(1);
    const other = await ctx.app.inject({
      url,
      headers: { range: 'bytes=0-' },
      remoteAddress: '198.51.100.4',
    });
    expect(other.statusCode).toBe(302);
    expect(await downloads(ctx, episode.id)).toBe(2);
  });
});
