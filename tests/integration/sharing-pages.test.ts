// The pages behind share links (docs/decisions/0035): link-card tags (OpenGraph, Twitter,
// oEmbed discovery) in the web app's page of a song, playlist, profile, show or episode, with
// nothing of an item a link does not show; the embed pages, the only documents other sites
// may frame; and robots.txt letting crawlers read them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makePng, makeUser, rows, uploadSong, type TestUser } from './songs-helpers.ts';

const PUBLIC_URL = 'https://canto.example';
const INDEX_HTML =
  '<!doctype html><html><head><meta charset="UTF-8" />' +
  '<meta name="description" content="The app itself." /><title>Canto</title></head>' +
  '<body><div id="root"></div></body></html>';
const EMBED_HTML =
  '<!doctype html><html><head><title>Canto player</title>' +
  '<script type="module" src="/assets/embed-0123abcd.js"></script></head>' +
  '<body><div id="embed"></div></body></html>';

const SONG_VISITOR_HTML =
  '<!doctype html><html><head><title>Canto</title></head>' +
  '<body><main id="song"></main></body></html>';

/** A built web app: the SPA's page and the embed page, as `npm run build` lays them out. */
function tinyWebDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-share-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dir, 'embed.html'), EMBED_HTML);
  fs.writeFileSync(path.join(dir, 'song-visitor.html'), SONG_VISITOR_HTML);
  return dir;
}

/** The `content` of each <meta> in `html`, by its property or name. */
function metas(html: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    (out[m[1]!] ??= []).push(m[2]!);
  return out;
}
const CARD_TAG = /og:|twitter:|music:|application\/json\+oembed|rel="canonical"/;

describe.each(dbKinds)('share pages on %s', (kind) => {
  let webDir: string;
  const ctx = useTestApp(
    kind,
    { PUBLIC_URL, JOB_POLL_INTERVAL_MS: '50', MEDIA_WORKERS: '1' },
    { webDir: () => (webDir = tinyWebDir()) },
  );
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));
  let artist: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let songId = '';
  let coverUrl = '';
  let processing = '';
  let publicList = '';
  let privateList = '';
  let showId = '';
  let episodeId = '';

  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers });
  const inserted = async (query: ReturnType<typeof sql>) =>
    (await rows<{ id: string }>(ctx, query))[0]!.id;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Zoë "The" <Artist> & Co');
    owner = await makeUser(ctx, 'listener', 'Owner');
    other = await makeUser(ctx, 'listener', 'Other');
    await ctx.jobs.start();
    const song = await uploadSong(ctx, artist, {
      title: 'Rock & "Roll" </script><b>',
      cover: await makePng(300, 300),
    });
    songId = song.id;
    coverUrl = song.cover_art_url;
    const until = Date.now() + 60_000;
    for (;;) {
      const [row] = await rows<{ s: string }>(
        ctx,
        sql`select media_status::text as s from songs where id = ${songId}`,
      );
      if (row!.s === 'ready') break;
      if (row!.s === 'failed' || Date.now() > until) throw new Error(`song is ${row!.s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const [original] = await rows<{ file_url: string; file_key: string }>(
      ctx,
      sql`select file_url, file_key from songs where id = ${songId}`,
    );
    processing = await inserted(
      sql`insert into songs (artist_id, artist, title, file_url, file_key, media_status)
          values (${artist.userId}, 'A', 'Still Cooking', ${original!.file_url},
                  ${original!.file_key}, 'processing') returning id`,
    );
    const list = async (title: string, isPublic: boolean) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/playlists',
        headers: owner.headers,
        payload: { title, is_public: isPublic },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ id: string }>().id;
      const added = await ctx.app.inject({
        method: 'POST',
        url: `/api/playlists/${id}/tracks`,
        headers: owner.headers,
        payload: { song_id: songId },
      });
      expect(added.statusCode, added.body).toBe(201);
      return id;
    };
    publicList = await list('Mix <One>', true);
    privateList = await list('Secret Diary', false);
    showId = await inserted(
      sql`insert into podcasts (creator_id, title, description, cover_art_url)
          values (${artist.userId}, 'The "Show"', 'Talk & more', ${coverUrl}) returning id`,
    );
    episodeId = await inserted(
      sql`insert into podcast_episodes (podcast_id, title, audio_url)
          values (${showId}, 'Episode <1>', ${original!.file_url}) returning id`,
    );
  }, 120_000);

  it("gives a song's page its title, card tags, preview and player, escaped", async () => {
    const res = await get(`/song/${songId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    // One title, the song's; the app's own description gives way to the song's.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain(
      '<title>Rock &amp; &quot;Roll&quot; &lt;/script&gt;&lt;b&gt; · Zoë &quot;The&quot; &lt;Artist&gt; &amp; Co | Canto</title>',
    );
    expect(html).not.toContain('The app itself.');
    expect(html).not.toContain('</script><b>');
    const url = `${PUBLIC_URL}/song/${songId}`;
    expect(metas(html)).toMatchObject({
      'og:title': ['Rock &amp; &quot;Roll&quot; &lt;/script&gt;&lt;b&gt;'],
      'og:type': ['music.song'],
      'og:url': [url],
      'og:image': [`${PUBLIC_URL}${coverUrl}`],
      'og:audio': [`${PUBLIC_URL}/api/share/songs/${songId}/preview`],
      'og:audio:type': ['audio/webm'],
      'music:musician': [`${PUBLIC_URL}/profile/${artist.userId}`],
      'twitter:card': ['player'],
      'twitter:player': [`${PUBLIC_URL}/embed/song/${songId}`],
      'twitter:player:width': ['456'],
      'twitter:player:height': ['152'],
    });
    expect(metas(html).description![0]).toContain('Listen to Rock &amp; &quot;Roll&quot;');
    const oembed = `${PUBLIC_URL}/api/oembed?${new URLSearchParams({ url, format: 'json' })}`;
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="${oembed.replace(/&/g, '&amp;')}"`,
    );
    // The card names no stored audio: the visitor's preview only.
    expect(html).not.toContain('/media/music/');
    // The cover a crawler fetches is served without a session.
    const cover = await get(coverUrl);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\//);
  });

  it("gives a visitor the song's own small page with its data, a listener the app", async () => {
    const visitor = (await get(`/song/${songId}`)).body;
    expect(visitor).toContain('<main id="song">');
    expect(visitor).not.toContain('<div id="root">');
    const data = /<script type="application\/json" id="canto-embed-data">(.*?)<\/script>/.exec(
      visitor,
    );
    const parsed = JSON.parse(data![1]!) as { kind: string; item: { full: boolean; song: any } };
    expect(parsed.kind).toBe('song');
    expect(parsed.item.full).toBe(false);
    expect(parsed.item.song.id).toBe(songId);
    expect(parsed.item.song.file_url).toBeNull();
    const listener = await get(`/song/${songId}`, owner.headers);
    expect(listener.statusCode).toBe(200);
    expect(listener.body).toContain('<div id="root">');
    expect(listener.body).not.toContain('<main id="song">');
    // A song a link does not show: the visitor's page still answers 404, with no data.
    const missing = await get(`/song/${processing}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('canto-embed-data');
  });

  it("gives a public playlist's page its card, and no page of a private one anything", async () => {
    const res = await get(`/playlist/${publicList}`);
    expect(res.statusCode).toBe(200);
    expect(metas(res.body)).toMatchObject({
      'og:title': ['Mix &lt;One&gt;'],
      'og:type': ['music.playlist'],
      'og:url': [`${PUBLIC_URL}/playlist/${publicList}`],
      'og:image': [`${PUBLIC_URL}${coverUrl}`],
      'music:song': [`${PUBLIC_URL}/song/${songId}`],
      'twitter:player': [`${PUBLIC_URL}/embed/playlist/${publicList}`],
      'twitter:player:height': ['352'],
    });

    for (const headers of [{}, other.headers, artist.headers]) {
      const hidden = await get(`/playlist/${privateList}`, headers);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.body).toContain('<div id="root">');
      expect(hidden.body).toContain('<title>Canto</title>');
      expect(hidden.body).not.toContain('Secret Diary');
      expect(hidden.body).not.toMatch(CARD_TAG);
    }
    // Its owner gets the app (it shows them their playlist), still with no card.
    const own = await get(`/playlist/${privateList}`, owner.headers);
    expect(own.statusCode).toBe(200);
    expect(own.body).not.toContain('Secret Diary');
    expect(own.body).not.toMatch(CARD_TAG);
  });

  it('answers 404 with a generic title for songs a link does not show', async () => {
    for (const url of [
      `/song/${processing}`,
      '/song/not-a-uuid',
      '/song/00000000-0000-4000-8000-000000000000',
      '/song/itunes:123',
      '/profile/nobody',
      `/show/${songId}`,
      `/episode/${showId}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body.match(/<title>/g), url).toHaveLength(1);
      expect(res.body).toContain('<title>Canto</title>');
      expect(res.body).not.toMatch(CARD_TAG);
      expect(res.body).not.toContain('Still Cooking');
    }
    // Paths that name no item are the app as before.
    const plain = await get('/library');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toContain('The app itself.');
  });

  it('gives profiles, shows and episodes their cards', async () => {
    const profile = await get(`/profile/${artist.userId}`);
    expect(profile.statusCode).toBe(200);
    expect(metas(profile.body)).toMatchObject({
      'og:title': ['Zoë &quot;The&quot; &lt;Artist&gt; &amp; Co'],
      'og:type': ['profile'],
      'og:url': [`${PUBLIC_URL}/profile/${artist.userId}`],
      'twitter:card': ['summary'],
    });

    const show = await get(`/show/${showId}`);
    expect(show.statusCode).toBe(200);
    expect(metas(show.body)).toMatchObject({
      'og:title': ['The &quot;Show&quot;'],
      'og:description': ['Talk &amp; more'],
      'og:type': ['website'],
      'og:image': [`${PUBLIC_URL}${coverUrl}`],
      'twitter:card': ['summary_large_image'],
    });

    const episode = await get(`/episode/${episodeId}`);
    expect(episode.statusCode).toBe(200);
    expect(episode.body).toContain(
      '<title>Episode &lt;1&gt; · The &quot;Show&quot; | Canto</title>',
    );
    expect(metas(episode.body)['og:url']).toEqual([`${PUBLIC_URL}/episode/${episodeId}`]);
  });

  it("serves a song's embed page: the build's embed.html with its data, frameable", async () => {
    const res = await get(`/embed/song/${songId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(res.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.body).toContain('<script type="module" src="/assets/embed-0123abcd.js">');
    expect(res.body.match(/<title>/g)).toHaveLength(1);
    expect(metas(res.body)['og:type']).toEqual(['music.song']);
    const data = /<script type="application\/json" id="canto-embed-data">([\s\S]*?)<\/script>/.exec(
      res.body,
    );
    expect(data).not.toBeNull();
    // `<` is escaped: the title's `</script>` cannot end the element.
    expect(data![1]).not.toContain('<');
    const parsed = JSON.parse(data![1]!);
    expect(parsed).toMatchObject({
      kind: 'song',
      canonicalUrl: `${PUBLIC_URL}/song/${songId}`,
      item: {
        full: false,
        song: {
          id: songId,
          title: 'Rock & "Roll" </script><b>',
          file_url: null,
          preview_url: `/api/share/songs/${songId}/preview`,
        },
      },
    });
    expect(res.body).not.toContain('/media/music/');
  });

  it("serves a public playlist's embed page, and a small 404 page for anything else", async () => {
    const res = await get(`/embed/playlist/${publicList}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('"kind":"playlist"');
    for (const url of [
      `/embed/playlist/${privateList}`,
      `/embed/song/${processing}`,
      '/embed/song/nope',
      `/embed/playlist/${songId}`,
    ]) {
      for (const headers of [{}, owner.headers]) {
        const gone = await get(url, headers);
        expect(gone.statusCode, url).toBe(404);
        expect(gone.headers['content-type']).toMatch(/^text\/html/);
        expect(gone.body).toContain("This item isn't available");
        expect(gone.body).not.toContain('canto-embed-data');
        expect(gone.body).not.toContain('Secret Diary');
        expect(gone.body).not.toMatch(CARD_TAG);
        // Still frameable: the embedding site shows the message.
        expect(gone.headers['content-security-policy']).toContain('frame-ancestors *');
      }
    }
  });

  it('keeps every other page and answer unframeable', async () => {
    for (const url of [
      '/',
      `/song/${songId}`,
      '/song/x',
      '/api/health',
      `/api/share/songs/${songId}`,
    ]) {
      const res = await get(url);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).not.toContain('frame-ancestors *');
    }
  });

  it('lets crawlers read the shared pages, embeds, previews, oEmbed and covers', async () => {
    const lines = (await get('/robots.txt')).body.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Allow: /song/',
        'Allow: /playlist/',
        'Allow: /embed/',
        'Allow: /api/share/',
        'Allow: /api/oembed',
        'Allow: /media/cover-art/',
        'Disallow: /api/',
        'Disallow: /media/',
      ]),
    );
  });
});
