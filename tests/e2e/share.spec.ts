// Share links and the embed player. (a) The shared listener shares a song from its card: the
// dialog shows the canonical link and the <iframe> snippet, Copy link puts the link on the
// clipboard; a signed-out visitor opens it and sees the song (title, artist, cover, the page's
// OpenGraph tags) and plays its preview. A private playlist's links show not found and leak
// nothing; a visitor opening a signed-in link signs in and comes back to it. (b) The listener
// copies a public playlist's embed code; a page on another origin carries it, and inside the
// frame Play plays (the progress advances), a track is chosen, and 'Listen on Canto' links the
// playlist's page. The fixture artist uploads the songs (one with a cover) through the API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  ARTIST_STATE,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  sharedListener,
  test,
} from './support.ts';
import { coverPng, deleteArtistSongs, sineWav } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: LISTENER_STATE });

const run = Date.now().toString(36);
const SONG = `Tide ${run}`;
const SECOND = `Drift ${run}`;
const PUBLIC_LIST = `Road mix ${run}`;
const PRIVATE_LIST = `Secret mix ${run}`;
const songIds: string[] = [];
const playlists: Record<'public' | 'private', string> = { public: '', private: '' };

async function uploadWithCover(api: APIRequestContext, title: string, hz: number) {
  const res = await api.post('/api/songs', {
    multipart: {
      title,
      genre: 'Ambient',
      file: {
        name: 'tone.wav',
        mimeType: 'audio/wav',
        buffer: sineWav({ seconds: 60, hz, sampleRate: 8000 }),
      },
      cover: { name: 'cover.png', mimeType: 'image/png', buffer: await coverPng() },
    },
    timeout: 150_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(240_000);
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  songIds.push(
    ...(await Promise.all([
      uploadWithCover(artist, SONG, 440),
      uploadWithCover(artist, SECOND, 550),
    ])),
  );
  await artist.dispose();
  // A song is shared once processed (its renditions and preview made): until then its link is
  // a 404 like a private one.
  const visitor = await playwright.request.newContext({ baseURL, storageState: undefined });
  for (const id of songIds)
    await expect
      .poll(async () => (await visitor.get(`/api/share/songs/${id}`)).status(), {
        timeout: 180_000,
        intervals: [500, 1000, 2000],
      })
      .toBe(200);
  await visitor.dispose();

  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  for (const [key, title, isPublic] of [
    ['public', PUBLIC_LIST, true],
    ['private', PRIVATE_LIST, false],
  ] as const) {
    const res = await listener.post('/api/playlists', { data: { title, is_public: isPublic } });
    expect(res.status(), await res.text()).toBe(201);
    playlists[key] = ((await res.json()) as { id: string }).id;
    for (const id of songIds) {
      const add = await listener.post(`/api/playlists/${playlists[key]}/tracks`, {
        data: { song_id: id },
      });
      expect(add.ok(), await add.text()).toBe(true);
    }
  }
  await listener.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  for (const id of Object.values(playlists)) if (id) await listener.delete(`/api/playlists/${id}`);
  await listener.dispose();
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share' });

/** A signed-out visitor's page: a context with no cookies. */
async function visitorPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, storageState: undefined });
  return { context, page: await context.newPage() };
}

const meta = (page: Page, property: string) =>
  page.locator(`meta[property="${property}"]`).first().getAttribute('content');

test('share a song from its card, open the link signed out and play the preview', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const songId = songIds[0]!;
  const link = `${baseURL}/song/${songId}`;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseURL,
  });

  await test.step('Share on the song card shows the link and the embed code', async () => {
    await page.goto('/');
    const card = page
      .getByRole('region', { name: 'Recent Tracks' })
      .getByTestId('song-card')
      .filter({ has: page.getByRole('heading', { name: SONG, exact: true }) });
    await card.getByRole('button', { name: `Share ${SONG}` }).click();
    const dialog = shareDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Link' })).toHaveValue(link);
    const embed = dialog.getByRole('textbox', { name: 'Embed code' });
    await expect(embed).toHaveValue(
      `<iframe title="${SONG} on Canto" src="${baseURL}/embed/song/${songId}" width="100%" height="152" style="border:0;border-radius:12px" loading="lazy" allow="autoplay; encrypted-media"></iframe>`,
    );
    expect(await seriousAxeViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expectToast(page, 'Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  const visitor = await visitorPage(browser, baseURL);
  try {
    const v = visitor.page;
    await test.step('a visitor opens the link: the song, its card tags, its preview', async () => {
      await v.goto(link);
      await expect(v.getByRole('heading', { level: 1, name: SONG })).toBeVisible();
      await expect(v.getByText('E2E Artist', { exact: false }).first()).toBeVisible();
      const cover = v.getByRole('img', { name: `Cover of ${SONG}` });
      await expect(cover).toBeVisible();
      await expect
        .poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      // What a chat shows when the link is pasted: the server writes it into the page.
      expect(await meta(v, 'og:title')).toContain(SONG);
      expect(await meta(v, 'og:audio')).toContain(`/api/share/songs/${songId}/preview`);
      await expect(
        v.getByRole('heading', { name: 'Sign up to hear the whole song' }),
      ).toBeVisible();
      expect(await seriousAxeViolations(v)).toEqual([]);

      await v.getByRole('button', { name: 'Play', exact: true }).click();
      await expect(v.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
      await expect
        .poll(() => v.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0.5);
      // The visitor hears the preview, never the whole file.
      expect(await v.locator('audio').getAttribute('src')).toContain(
        `/api/share/songs/${songId}/preview`,
      );
      await v.getByRole('button', { name: 'Pause', exact: true }).click();
    });

    await test.step("a private playlist's links show not found and leak nothing", async () => {
      const api = visitor.context.request;
      expect((await api.get(`/api/share/playlists/${playlists.private}`)).status()).toBe(404);
      const embed = await v.goto(`/embed/playlist/${playlists.private}`);
      expect(embed?.status()).toBe(404);
      await expect(v.getByText(/isn't available|not found/i).first()).toBeVisible();
      expect(await v.content()).not.toContain(PRIVATE_LIST);
      const page404 = await api.get(`/playlist/${playlists.private}`);
      expect(await page404.text()).not.toContain(PRIVATE_LIST);
      const unknown = `/song/${songIds[0]!.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`;
      await v.goto(unknown);
      await expect(v.getByRole('heading', { name: "This song isn't available" })).toBeVisible();
    });

    await test.step('a signed-in link sends the visitor to sign in, then back to it', async () => {
      await v.goto(`/playlist/${playlists.public}`);
      await expect(v).toHaveURL(/\/auth$/);
      const { email, password } = sharedListener();
      await v.getByLabel('Email').fill(email);
      await v.getByLabel('Password').fill(password);
      await v.getByRole('button', { name: 'Sign In' }).click();
      await expect(v).toHaveURL(new RegExp(`/playlist/${playlists.public}$`));
      await expect(v.getByRole('heading', { name: PUBLIC_LIST })).toBeVisible();
    });
  } finally {
    await visitor.context.close();
  }
});

/** Serves one HTML page from another origin (localhost, not the app's 127.0.0.1). */
async function blogPage(html: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, close: () => server.close() };
}

test('embed a public playlist on another site and play it in the frame', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const canonical = `${baseURL}/playlist/${playlists.public}`;

  await page.goto(`/playlist/${playlists.public}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = shareDialog(page);
  await expect(dialog.getByRole('textbox', { name: 'Link' })).toHaveValue(canonical);
  const snippet = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
  expect(snippet).toContain('height="352"');

  // A private playlist offers no Share at all.
  await page.goto(`/playlist/${playlists.private}`);
  await expect(page.getByRole('heading', { name: PRIVATE_LIST })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);

  const blog = await blogPage(
    `<!doctype html><html lang="en"><head><title>A blog</title></head><body><h1>My mix</h1>${snippet}</body></html>`,
  );
  const visitor = await visitorPage(browser, baseURL);
  try {
    const v = visitor.page;
    await v.goto(blog.url);
    const frame = v.frameLocator(`iframe[title="${PUBLIC_LIST} on Canto"]`);
    await expect(frame.getByRole('heading', { name: PUBLIC_LIST })).toBeVisible();
    // The server's public address (PUBLIC_URL) names the page, whichever host framed it.
    await expect(frame.getByRole('link', { name: 'Listen on Canto' })).toHaveAttribute(
      'href',
      new RegExp(`^https?://[^/]+/playlist/${playlists.public}$`),
    );
    await expect(frame.getByRole('link', { name: 'Listen on Canto' })).toHaveAttribute(
      'target',
      '_blank',
    );
    const tracks = frame.getByRole('list', { name: 'Tracks' }).getByRole('button');
    await expect(tracks).toHaveCount(2);

    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(frame.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    const progress = frame.getByRole('slider', { name: 'Progress' });
    await expect
      .poll(async () => Number(await progress.inputValue()), { timeout: 20_000 })
      .toBeGreaterThan(0.5);

    await frame.getByRole('button', { name: 'Next' }).click();
    await expect(tracks.nth(1)).toHaveAttribute('aria-current', 'true');
    await expect(frame.getByText(`${SECOND} ·`)).toBeVisible();
    await frame.getByRole('button', { name: 'Previous' }).click();
    await expect(tracks.nth(0)).toHaveAttribute('aria-current', 'true');
    await tracks.nth(1).click();
    await expect(tracks.nth(1)).toHaveAttribute('aria-current', 'true');
    await expect
      .poll(async () => Number(await progress.inputValue()), { timeout: 20_000 })
      .toBeGreaterThan(0.5);
    await frame.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(frame.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  } finally {
    await visitor.context.close();
    blog.close();
  }
});

test("the visitor's own song document, then signed in the whole song in the app", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const songId = songIds[0]!;
  const visitor = await visitorPage(browser, baseURL);
  try {
    const v = visitor.page;
    // A visitor's /song/{id} is its own small document (song-visitor.html), not the app.
    await v.goto(`${baseURL}/song/${songId}`);
    await expect(v.locator('#root')).toHaveCount(0);
    await expect(v.getByRole('heading', { level: 1, name: SONG })).toBeVisible();
    await expect(v.getByRole('img', { name: `Cover of ${SONG}` })).toBeVisible();
    await expect(v.getByText(/E2E Artist · Ambient · 1:00/)).toBeVisible();
    expect(await seriousAxeViolations(v)).toEqual([]);
    await v.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(v.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await expect
      .poll(() => v.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0.5);
    await v.getByRole('button', { name: 'Pause', exact: true }).click();

    // Sign in from the page, and come back to the song inside the app.
    await v.getByRole('link', { name: 'Sign in' }).click();
    await expect(v).toHaveURL(/\/auth\?next=%2Fsong%2F/);
    const { email, password } = sharedListener();
    await v.getByLabel('Email').fill(email);
    await v.getByLabel('Password').fill(password);
    await v.getByRole('button', { name: 'Sign In' }).click();
    await expect(v).toHaveURL(new RegExp(`/song/${songId}$`));
    await expect(v.getByRole('heading', { level: 1, name: SONG })).toBeVisible();
    await expect(v.getByRole('heading', { name: 'Sign up to hear the whole song' })).toHaveCount(0);
    // A listener plays the whole song through the app's player.
    await v.getByRole('button', { name: 'Play', exact: true }).click();
    const bar = v.getByRole('region', { name: 'Player' });
    await expect(bar.getByText(SONG)).toBeVisible();
    await expect(v.getByRole('button', { name: 'Pause', exact: true }).first()).toBeVisible();
  } finally {
    await visitor.context.close();
  }
});

test('share a profile, a show and an episode; their links open the app on them', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const SHOW = `Share show ${run}`;
  const EPISODE = `Share episode ${run}`;
  const made = await artist.post('/api/podcasts', { multipart: { title: SHOW } });
  expect(made.status(), await made.text()).toBe(201);
  const showId = ((await made.json()) as { id: string }).id;
  try {
    const episode = await artist.post(`/api/podcasts/${showId}/episodes`, {
      multipart: {
        title: EPISODE,
        audio: {
          name: 'episode.wav',
          mimeType: 'audio/wav',
          buffer: sineWav({ seconds: 3, hz: 330, sampleRate: 8000 }),
        },
      },
    });
    expect(episode.status(), await episode.text()).toBe(201);
    const episodeId = ((await episode.json()) as { id: string }).id;
    const artistId = (
      (await (await artist.get('/api/auth/session')).json()) as { user: { id: string } }
    ).user.id;

    await test.step("an artist's profile", async () => {
      await page.goto(`/profile/${artistId}`);
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = shareDialog(page);
      await expect(dialog.getByRole('textbox', { name: 'Link' })).toHaveValue(
        `${baseURL}/profile/${artistId}`,
      );
      // Only songs and playlists have an embed player.
      await expect(dialog.getByRole('textbox', { name: 'Embed code' })).toHaveCount(0);
      await page.keyboard.press('Escape');
    });

    await test.step('a show, and its link', async () => {
      await page.goto(`/podcasts?show=${showId}`);
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const link = shareDialog(page).getByRole('textbox', { name: 'Link' });
      await expect(link).toHaveValue(`${baseURL}/show/${showId}`);
      await page.keyboard.press('Escape');
      await page.goto(`/show/${showId}`);
      await expect(page).toHaveURL(new RegExp(`/podcasts\\?show=${showId}$`));
      await expect(page.getByRole('heading', { name: SHOW })).toBeVisible();
    });

    await test.step('an episode, and its link with and without its show', async () => {
      await page.goto(`/podcasts?show=${showId}`);
      await page
        .getByTestId('episode')
        .filter({ hasText: EPISODE })
        .getByRole('button', { name: `Share ${EPISODE}` })
        .click();
      const link = shareDialog(page).getByRole('textbox', { name: 'Link' });
      await expect(link).toHaveValue(`${baseURL}/episode/${episodeId}?show=${showId}`);
      await page.keyboard.press('Escape');
      for (const path of [`/episode/${episodeId}?show=${showId}`, `/episode/${episodeId}`]) {
        await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`/podcasts\\?show=${showId}$`));
        await expect(page.getByTestId('episode').filter({ hasText: EPISODE })).toBeVisible();
      }
    });
  } finally {
    await artist.delete(`/api/podcasts/${showId}`);
    await artist.dispose();
  }
});
