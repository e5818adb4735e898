// The audio engine (docs/decisions/0015) and the player's brain in the browser: gapless handover
// between two queued songs (measured as the silence between two tones in the page's own audio
// output), stream records (a play shows in /api/me/recently-played and completes in the stats),
// keyboard shortcuts that stay quiet while typing, and the player kept across a reload, paused.
// Songs are generated tones uploaded through the API as the fixture artist.
import type { APIRequestContext, Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  sidebar,
  test,
} from './support.ts';
import { installOutputTap, silenceBetween } from './audio-output-tap.ts';
import { uploadTone } from './media.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: LISTENER_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const uploaded: string[] = [];

async function artistApi(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
) {
  return playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
}

async function upload(api: APIRequestContext, title: string, seconds: number, hz: number) {
  const id = await uploadTone(api, { title, seconds, hz, genre: 'Ambient' });
  uploaded.push(id);
  return id;
}

const titles = {
  first: `Gapless ${run} one`,
  second: `Gapless ${run} two`,
  long: `Keys ${run} long`,
  other: `Keys ${run} other`,
};
const ids: Record<keyof typeof titles, string> = { first: '', second: '', long: '', other: '' };

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await artistApi(playwright, baseURL);
  ids.first = await upload(api, titles.first, 2, 440);
  ids.second = await upload(api, titles.second, 2, 660);
  ids.long = await upload(api, titles.long, 30, 330);
  ids.other = await upload(api, titles.other, 30, 550);
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  const api = await artistApi(playwright, baseURL);
  for (const id of uploaded) await api.delete(`/api/songs/${id}`);
  await api.dispose();
});

// High plays the uploaded WAV itself, whatever the pipeline has made by then: the same
// bytes in every run.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('canto:quality', 'high'));
});

const recentCard = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const bar = (page: Page) => page.getByRole('region', { name: 'Player' });
const audio = (page: Page) => page.getByTestId('player-audio');

async function playFromHome(page: Page, title: string) {
  await recentCard(page, title)
    .getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect(bar(page).getByTestId('player-title')).toHaveText(title);
}

async function addToQueue(page: Page, title: string) {
  await recentCard(page, title)
    .getByRole('button', { name: `Add ${title} to queue` })
    .click();
}

const blur = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

const paused = (page: Page) => audio(page).evaluate((a: HTMLAudioElement) => a.paused);
const position = (page: Page) => audio(page).evaluate((a: HTMLAudioElement) => a.currentTime);

test('two queued songs play back to back without a gap (< 50 ms of silence)', async ({
  page,
  playwright,
  baseURL,
}) => {
  // Every node the engine connects to the speakers is also fed to a recorder that marks
  // each millisecond of the page's output as sounding or silent.
  await page.addInitScript(installOutputTap);

  const api = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  const statsBefore = await (await api.get('/api/me/stats')).json();

  await page.goto('/');
  await addToQueue(page, titles.second);
  await playFromHome(page, titles.first);
  // The next song waits preloaded in the second element.
  await expect
    .poll(() =>
      page
        .getByTestId('player-audio-next')
        .evaluate((a: HTMLAudioElement) => a.readyState >= HTMLMediaElement.HAVE_ENOUGH_DATA),
    )
    .toBe(true);

  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.second, {
    timeout: 10_000,
  });
  // The second one plays to its end, then the player stops (nothing queued, repeat off).
  await expect.poll(() => paused(page), { timeout: 10_000 }).toBe(true);
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.second);

  const sound = await page.evaluate(() => (window as unknown as { outputMs: boolean[] }).outputMs);
  const { heard, longest: longestSilence } = silenceBetween(sound);
  // Both tones were heard (2 s each), and never more than 50 ms of silence between them.
  console.log(`gapless: ${heard} ms heard, longest silence ${longestSilence} ms`);
  expect(heard).toBeGreaterThan(3_800);
  expect(longestSilence).toBeLessThan(50);

  // Each start wrote a stream record; both were heard to their end (≥ 90 %: completed).
  await expect
    .poll(async () => {
      const res = await api.get('/api/me/recently-played');
      const { items } = (await res.json()) as { items: Array<{ song: { id: string } }> };
      return items.slice(0, 2).map((i) => i.song.id);
    })
    .toEqual([ids.second, ids.first]);
  await expect
    .poll(async () => (await (await api.get('/api/me/stats')).json()) as typeof statsBefore)
    .toMatchObject({
      totalStreams: statsBefore.totalStreams + 2,
      completedStreams: statsBefore.completedStreams + 2,
    });
  await api.dispose();
});

test('keyboard: Space plays and pauses, Shift+arrows skip, M mutes; never while typing', async ({
  page,
}) => {
  await page.goto('/');
  await addToQueue(page, titles.other);
  await playFromHome(page, titles.long);
  await expect.poll(() => paused(page)).toBe(false);
  // The card's Play button has focus: Space would press it, so the page gets the focus.
  await blur(page);

  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(true);
  await expect(bar(page).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(false);

  await page.keyboard.press('m');
  await expect.poll(() => audio(page).evaluate((a: HTMLAudioElement) => a.muted)).toBe(true);
  await page.keyboard.press('m');
  await expect.poll(() => audio(page).evaluate((a: HTMLAudioElement) => a.muted)).toBe(false);

  // With Ctrl the browser's own shortcut, not the player's.
  await page.keyboard.press('Control+m');
  expect(await audio(page).evaluate((a: HTMLAudioElement) => a.muted)).toBe(false);

  await page.keyboard.press('Shift+ArrowRight');
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.other);
  await expect.poll(() => paused(page)).toBe(false);
  // Within the first 3 s Previous goes back to the song before.
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.long);
  // Lock screens and media keys see what plays (Media Session).
  await expect
    .poll(() =>
      page.evaluate(() => ({
        title: navigator.mediaSession.metadata?.title,
        artist: navigator.mediaSession.metadata?.artist,
        state: navigator.mediaSession.playbackState,
      })),
    )
    .toEqual({ title: titles.long, artist: E2E_ARTIST.displayName, state: 'playing' });

  // Those were a free listener's 2 skips of the hour: the third is refused, with the toast.
  await page.keyboard.press('Shift+ArrowRight');
  await expectToast(
    page,
    'Skip limit reached',
    'Free users can skip 2 times per hour. Upgrade to Premium for unlimited skips!',
  );
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.long);

  // In the search box the keys are text: nothing pauses, mutes or skips.
  await sidebar(page).getByRole('link', { name: 'Search' }).click();
  const box = page.getByLabel('Search songs and podcasts');
  await expect(box).toBeFocused();
  await box.pressSequentially('m m');
  await box.press('Shift+ArrowLeft');
  await box.press('Shift+ArrowRight');
  await expect(box).toHaveValue('m m');
  expect(await paused(page)).toBe(false);
  expect(await audio(page).evaluate((a: HTMLAudioElement) => a.muted)).toBe(false);
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.long);
});

test('a reload keeps the item, its position and the queue, and comes back paused', async ({
  page,
}) => {
  await page.goto('/');
  await addToQueue(page, titles.other);
  await playFromHome(page, titles.long);
  await expect.poll(() => position(page), { timeout: 10_000 }).toBeGreaterThan(2);
  await blur(page);
  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(true);
  const before = await position(page);
  await page.keyboard.press('m');

  await page.reload();
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.long);
  await expect(bar(page).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  // Paused where it was (the element seeks there once it has loaded), and still muted.
  await expect.poll(() => position(page)).toBeCloseTo(before, 0);
  expect(await paused(page)).toBe(true);
  expect(await audio(page).evaluate((a: HTMLAudioElement) => a.muted)).toBe(true);
  await expect(bar(page).getByTestId('player-elapsed')).toHaveText(
    `0:${String(Math.floor(before)).padStart(2, '0')}`,
  );

  // Play carries on from there; the queue came back too: Next plays the queued song.
  await blur(page);
  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(false);
  expect(await position(page)).toBeGreaterThanOrEqual(before - 0.1);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(bar(page).getByTestId('player-title')).toHaveText(titles.other);
});

test.describe('signed media URLs that expired while kept', () => {
  // The element's request for the stale URL is refused (403) before the player refetches it.
  test.use({ allowedConsoleErrors: [/status of 403/] });

  test('a restored item whose URL no longer verifies is fetched again and plays from its place', async ({
    page,
  }) => {
    await page.goto('/');
    await playFromHome(page, titles.long);
    await expect.poll(() => position(page), { timeout: 10_000 }).toBeGreaterThan(2);
    await blur(page);
    await page.keyboard.press('Space');
    await expect.poll(() => paused(page)).toBe(true);
    const before = await position(page);

    // As if the page had been closed for longer than a signature lasts.
    await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('canto:player:'))!;
      localStorage.setItem(key, localStorage.getItem(key)!.replace(/([?&]s=)[^&"]+/g, '$1forged'));
    });
    await page.reload();
    await expect(bar(page).getByTestId('player-title')).toHaveText(titles.long);
    await blur(page);
    await page.keyboard.press('Space');
    await expect.poll(() => paused(page), { timeout: 10_000 }).toBe(false);
    expect(await audio(page).evaluate((a: HTMLAudioElement) => a.currentSrc)).not.toContain(
      'forged',
    );
    expect(await position(page)).toBeGreaterThanOrEqual(before - 0.1);
  });
});
