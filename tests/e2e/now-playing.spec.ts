// The phone's now-playing view, as the shared (free) listener at a phone's viewport: a tap on
// the mini player opens a full-screen dialog named 'Now playing' with the cover, title and
// artist, the scrubber, Play/Pause, Next and the queue; Escape, its close button and Back each
// close it, and focus returns to the mini player. The fixture artist uploads two long tones
// through the API first and deletes them at the end.
import type { Page } from '@playwright/test';
import { E2E_ARTIST, expect, expectToast, LISTENER_STATE, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });
test.use({
  storageState: LISTENER_STATE,
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
});

const run = Date.now().toString(36);
const titles = ['First', 'Second'].map((n) => `Now ${run} ${n}`);
const [A, B] = titles as [string, string];
const songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  songIds.push(...(await uploadArtistTones(playwright, baseURL, titles, 180)));
});

test.afterAll(async ({ playwright, baseURL }) => {
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const card = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const bar = (page: Page) => page.getByRole('region', { name: 'Player' });
const view = (page: Page) => page.getByRole('dialog', { name: 'Now playing' });

test('a tap on the mini player opens the now-playing view; Escape, Close and Back close it', async ({
  page,
}) => {
  await page.goto('/');
  await card(page, A)
    .getByRole('button', { name: `Play ${A} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect(bar(page).getByTestId('player-title')).toHaveText(A);
  await card(page, B)
    .getByRole('button', { name: `Add ${B} to queue` })
    .click();
  await expectToast(page, 'Added to queue', B);
  const url = page.url();

  const mini = bar(page).getByRole('button', { name: 'Open now playing' });
  await mini.tap();
  const dialog = view(page);
  await expect(dialog).toBeVisible();
  // Full screen: it covers the viewport.
  const box = (await dialog.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(390);
  expect(box.height).toBeGreaterThanOrEqual(844);
  await expect(dialog.getByRole('img', { name: `Cover of ${A}` })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: A })).toBeVisible();
  await expect(dialog.getByRole('link', { name: E2E_ARTIST.displayName })).toBeVisible();
  await expect(dialog.getByRole('slider', { name: 'Seek' })).toBeVisible();
  const queue = dialog.getByRole('region', { name: 'Queue' });
  await expect(queue.getByTestId('queue-item-title')).toHaveText([B]);
  expect(await seriousAxeViolations(page, '[data-testid="now-playing-view"]')).toEqual([]);

  // The controls work from here: Pause / Play, then Next plays the queued song.
  await dialog.getByRole('button', { name: 'Pause' }).tap();
  await expect(dialog.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Play', exact: true }).tap();
  await expect(dialog.getByRole('button', { name: 'Pause' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).tap();
  await expect(dialog.getByRole('heading', { name: B })).toBeVisible();
  await expect(queue.getByText('Queue is empty')).toBeVisible();

  // Escape closes it; focus is back on the mini player; the page did not change.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(mini).toBeFocused();
  await expect(bar(page).getByTestId('player-title')).toHaveText(B);
  expect(page.url()).toBe(url);

  // The close button closes it.
  await mini.tap();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close now playing' }).tap();
  await expect(dialog).toHaveCount(0);

  // Back closes it, as on any phone, and stays on the same page.
  await mini.tap();
  await expect(dialog).toBeVisible();
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  expect(page.url()).toBe(url);
  await expect(bar(page).getByTestId('player-title')).toHaveText(B);
});
