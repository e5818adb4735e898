// The installable app and offline downloads (docs/decisions/0036-offline-downloads.md), in
// the production build: the manifest is linked and valid and the service worker controls the
// page (Chromium reports no installability error); a subscriber downloads a song, goes
// offline, reloads, plays it from Downloads and seeks; back online, the play is counted once.
// A full storage says so and lists nothing; a song card's Download stores the song too; a lapsed
// subscription silences downloads at the next online check (files kept, renewing plays them
// again); a free listener is told Download is Premium, on rows and on cards.
import type { BrowserContext, Page } from '@playwright/test';
import { seriousAxeViolations } from './axe.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { signUpSubscriber } from './subscriber.ts';
import { expect, expectToast, LISTENER_STATE, test } from './support.ts';

test.describe.configure({ mode: 'serial' });
// Offline, every request the app still makes fails in the console.
test.use({ allowedConsoleErrors: [/net::ERR_INTERNET_DISCONNECTED|status of 40[13]/] });

const run = Date.now().toString(36);
const titles = [`Offline ${run} One`, `Offline ${run} Two`];
const [ONE, TWO] = titles as [string, string];
const songIds: string[] = [];
let playlistId = '';
let context: BrowserContext;
let page: Page;

const audio = (p: Page) => p.getByTestId('player-audio');
const songCard = (p: Page, title: string) =>
  p
    .getByRole('region', { name: 'Song results' })
    .getByTestId('song-card')
    .filter({ has: p.getByRole('heading', { name: title, exact: true }) });
const position = (p: Page) => audio(p).evaluate((a: HTMLAudioElement) => a.currentTime);

test.beforeAll(async ({ browser, playwright, baseURL }) => {
  test.setTimeout(240_000);
  songIds.push(...(await uploadArtistTones(playwright, baseURL, titles, 40)));
  context = await browser.newContext({ baseURL });
  page = await context.newPage();
  await signUpSubscriber(page, 'offline', 'Offline Listener');
  // Downloads store the Opus rendition: the pipeline makes it after the upload.
  for (const id of songIds) {
    await expect
      .poll(
        async () => {
          const song = (await (await page.request.get(`/api/songs/${id}`)).json()) as {
            status: string;
            renditions: { codec: string }[];
          };
          return song.status === 'ready' && song.renditions.some((r) => r.codec === 'opus');
        },
        { timeout: 120_000 },
      )
      .toBe(true);
  }
  const created = await page.request.post('/api/playlists', {
    data: { title: `Offline ${run}`, is_public: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  playlistId = ((await created.json()) as { id: string }).id;
  for (const id of songIds) {
    const added = await page.request.post(`/api/playlists/${playlistId}/tracks`, {
      data: { song_id: id },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
});

test.afterAll(async ({ playwright, baseURL }) => {
  await context?.close();
  await deleteArtistSongs(playwright, baseURL, songIds);
});

test('install is offered: a valid manifest is linked and the service worker controls the page', async () => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { sizes: string; type: string; purpose?: string; src: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'Canto',
    short_name: 'Canto',
    start_url: '/',
    display: 'standalone',
  });
  for (const [size, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ]) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === purpose);
    expect(icon, `${size} ${purpose}`).toBeTruthy();
    const png = await page.request.get(icon!.src);
    expect(png.headers()['content-type']).toBe('image/png');
  }
  // The worker is checked on every load, so a deploy reaches installed apps.
  const sw = await page.request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');

  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
    timeout: 30_000,
  });
  // What Lighthouse's installable audit asked: Chromium's own installability check.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  // A Playwright context is incognito, where Chromium never offers install: that one aside,
  // nothing stands in the way (manifest, icons, service worker, start URL).
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual(
    [],
  );
  const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: unknown[] };
  expect(errors).toEqual([]);
  await cdp.detach();
});

test('a subscriber downloads a song, plays it offline, seeks, and the play is counted once back online', async () => {
  test.setTimeout(120_000);
  await page.goto(`/playlist/${playlistId}`);
  await page.getByRole('button', { name: `Download ${ONE}` }).click();
  await expectToast(page, 'Downloaded', ONE);
  await expect(page.getByRole('button', { name: `Downloaded ${ONE}` })).toBeVisible();

  await page.goto('/downloads');
  const list = page.getByRole('list', { name: 'Downloads' });
  await expect(list.getByTestId('download')).toHaveCount(1);
  await expect(list.getByTestId('download')).toContainText(ONE);
  await expect(list.getByTestId('download-size')).toHaveText(/\d+(\.\d)? (KB|MB)/);
  await expect(page.getByTestId('downloads-storage')).toContainText('Storage used');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
  await list.getByRole('button', { name: `Play ${ONE}` }).click();
  const bar = page.getByRole('region', { name: 'Player' });
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect(await audio(page).getAttribute('src')).toBe(`/offline/song/${songIds[0]}/audio`);
  await expect.poll(() => position(page), { timeout: 15_000 }).toBeGreaterThan(1);

  // Seeking asks a Range the worker answers from the cache.
  await audio(page).evaluate((a: HTMLAudioElement) => {
    a.currentTime = 25;
  });
  await expect.poll(() => position(page)).toBeGreaterThan(25.5);
  await bar.getByRole('button', { name: 'Pause' }).click();

  // Nothing reached the server while offline.
  await context.setOffline(false);
  await expect
    .poll(
      async () => {
        const recent = (await (await page.request.get('/api/me/recently-played')).json()) as {
          items: { kind: string; song?: { id: string } }[];
        };
        return recent.items.filter((i) => i.song?.id === songIds[0]).length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  // Online and offline again: the record went once and is not sent again.
  await context.setOffline(true);
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
  const again = (await (await page.request.get('/api/me/recently-played')).json()) as {
    items: { song?: { id: string } }[];
  };
  expect(again.items.filter((i) => i.song?.id === songIds[0])).toHaveLength(1);
});

test('the Downloads page passes axe', async () => {
  await page.goto('/downloads');
  await expect(page.getByRole('list', { name: 'Downloads' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test('a full storage says so and lists nothing', async () => {
  const full = await context.newPage();
  // The browser's estimate leaves no room.
  await full.addInitScript(() => {
    navigator.storage.estimate = async () => ({ quota: 1_000_000, usage: 1_000_000 });
  });
  await full.goto(`/playlist/${playlistId}`);
  await full.getByRole('button', { name: `Download ${TWO}` }).click();
  await expectToast(full, 'Storage full', 'Not enough storage');
  await expect(full.getByRole('button', { name: `Download ${TWO}` })).toBeVisible();
  await full.goto('/downloads');
  const list = full.getByRole('list', { name: 'Downloads' });
  await expect(list.getByTestId('download')).toHaveCount(1);
  await expect(list).not.toContainText(TWO);
  await full.close();
});

test('Download on a song card: from Search, the song is on the Downloads page', async () => {
  await page.goto(`/search?q=${encodeURIComponent(TWO)}`);
  const card = songCard(page, TWO);
  await card.getByRole('button', { name: `Download ${TWO}` }).click();
  await expectToast(page, 'Downloaded', TWO);
  await expect(card.getByRole('button', { name: `Downloaded ${TWO}` })).toBeVisible();
  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  await page.goto('/downloads');
  const list = page.getByRole('list', { name: 'Downloads' });
  await expect(list.getByTestId('download')).toHaveCount(2);
  await expect(list.getByTestId('download').filter({ hasText: TWO })).toHaveCount(1);
});

test('a lapsed subscription stops its downloads at the next online check; the files stay, Remove works, renewing plays them again', async () => {
  test.setTimeout(120_000);
  // The local payments' test mode only cancels at the period's end (a month away) and the
  // server's PGlite admits no second process, so the app's online check is answered lapsed in
  // the page, before the app's scripts run: everything after that answer (the stored check,
  // the player, the worker) is the app's own.
  await page.addInitScript(() => {
    const fetchOnline = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (
        sessionStorage.getItem('e2e-lapsed') &&
        new URL(url, location.href).pathname === '/api/subscription'
      )
        return Promise.resolve(Response.json({ subscribed: false }));
      return fetchOnline(input, init);
    };
  });
  await page.evaluate(() => sessionStorage.setItem('e2e-lapsed', '1'));

  await page.goto('/downloads');
  const list = page.getByRole('list', { name: 'Downloads' });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Your downloads need an active Premium subscription to play.' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Premium' })).toBeVisible();
  // The files stay on the device.
  await expect(list.getByTestId('download')).toHaveCount(2);
  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  const play = list.getByRole('button', { name: `Play ${ONE}` });
  await expect(play).toHaveAttribute('aria-disabled', 'true');
  // Marked unavailable (not disabled), it still says why: a keyboard user's Enter.
  await play.focus();
  await page.keyboard.press('Enter');
  await expectToast(page, 'Premium needed', 'renew Premium');
  // The worker refuses the stored audio itself, Range requests too (the player bar may still
  // hold the download it played last: its key gets this answer).
  const refused = await page.evaluate(async (id) => {
    const whole = await fetch(`/offline/song/${id}/audio`);
    const part = await fetch(`/offline/song/${id}/audio`, { headers: { range: 'bytes=0-99' } });
    return [whole.status, part.status];
  }, songIds[0]);
  expect(refused).toEqual([403, 403]);

  // Remove still works while lapsed.
  await page.goto('/downloads');
  await list.getByRole('button', { name: `Remove ${TWO}` }).click();
  await expect(list.getByTestId('download')).toHaveCount(1);
  await expect(list).not.toContainText(TWO);

  // Offline no check can be made and the lapsed answer stands: the download the player bar kept
  // from before does not play, its worker says no.
  await page.evaluate(() => sessionStorage.removeItem('e2e-lapsed'));
  await context.setOffline(true);
  await page.reload();
  const bar = page.getByRole('region', { name: 'Player' });
  await expect(bar.getByTestId('player-title')).toHaveText(ONE);
  expect(await audio(page).getAttribute('src')).toBe(`/offline/song/${songIds[0]}/audio`);
  const before = await position(page);
  await bar.getByRole('button', { name: 'Play', exact: true }).click();
  await expect
    .poll(() => audio(page).evaluate((a: HTMLAudioElement) => a.error !== null))
    .toBe(true);
  expect(await position(page)).toBe(before);
  await context.setOffline(false);

  // Renewed: the next online check answers subscribed, and the kept file plays offline again.
  await page.goto('/downloads');
  await expect(list.getByRole('button', { name: `Play ${ONE}` })).not.toHaveAttribute(
    'aria-disabled',
  );
  await expect(page.getByRole('status').filter({ hasText: 'need an active Premium' })).toHaveCount(
    0,
  );
  await context.setOffline(true);
  await page.reload();
  await list.getByRole('button', { name: `Play ${ONE}` }).click();
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect(await audio(page).getAttribute('src')).toBe(`/offline/song/${songIds[0]}/audio`);
  const resumed = await position(page);
  await expect.poll(() => position(page), { timeout: 15_000 }).toBeGreaterThan(resumed + 1);
  await bar.getByRole('button', { name: 'Pause' }).click();
  await context.setOffline(false);
});

test('Remove takes a download off the device', async () => {
  await page.goto('/downloads');
  await page.getByRole('button', { name: `Remove ${ONE}` }).click();
  await expect(page.getByText('No downloads yet')).toBeVisible();
});

test('a free listener is told Download is a Premium feature', async ({ browser, baseURL }) => {
  const free = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const p = await free.newPage();
  await p.goto(`/playlist/${playlistId}`);
  const button = p.getByRole('button', { name: `Download ${ONE}` });
  await expect(button).toHaveAccessibleDescription(/Premium/);
  await expect(
    p.getByRole('button', { name: 'Download', exact: true }),
  ).toHaveAccessibleDescription('Offline downloads are a Premium feature');
  await button.click();
  await expectToast(p, 'Offline downloads are a Premium feature');
  await expect(p.getByRole('button', { name: `Downloaded ${ONE}` })).toHaveCount(0);
  // The same on a song card.
  await p.goto(`/search?q=${encodeURIComponent(TWO)}`);
  const card = songCard(p, TWO).getByRole('button', { name: `Download ${TWO}` });
  await expect(card).toHaveAccessibleDescription(/Premium/);
  await card.click();
  await expectToast(p, 'Offline downloads are a Premium feature');
  await expect(songCard(p, TWO).getByRole('button', { name: `Downloaded ${TWO}` })).toHaveCount(0);
  await free.close();
});
