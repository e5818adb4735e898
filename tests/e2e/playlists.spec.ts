// Playlists (docs/decisions/0017), as the shared listener: create a playlist from the sidebar (its
// rules, public by default) and find it on /playlists; add two songs to it from their cards
// with Add to playlist, then one again ('Already in playlist', the dialog stays open); on
// the playlist reorder by keyboard (kept after a reload), remove a track, Play All. The
// fixture artist then sees it read-only while public and 'Playlist not found' once the owner
// makes it private; the owner deletes it. The artist uploads the two songs through the API
// first and deletes them at the end.
import type { Page } from '@playwright/test';
import { ARTIST_STATE, expect, expectToast, LISTENER_STATE, sidebar, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({
  storageState: LISTENER_STATE,
  // The duplicate add is refused with 409, which the browser logs.
  allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 409/],
});

const run = Date.now().toString(36);
const A = `Listed ${run} One`;
const B = `Listed ${run} Two`;
const TITLE = `Road trip ${run}`;
const songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  // Each upload is decoded to be measured, beside other work on a busy machine.
  test.setTimeout(180_000);
  // 2 minutes at 8 kHz: small to upload, long enough to never end mid-journey.
  songIds.push(...(await uploadArtistTones(playwright, baseURL, [A, B], 120)));
});

test.afterAll(async ({ playwright, baseURL }) => {
  // A failed run leaves its playlist: remove it, then the songs.
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  const mine = await listener.get('/api/me/playlists');
  if (mine.ok()) {
    const { items } = (await mine.json()) as { items: { id: string; title: string }[] };
    for (const p of items.filter((p) => p.title === TITLE))
      await listener.delete(`/api/playlists/${p.id}`);
  }
  await listener.dispose();
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const card = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const addDialog = (page: Page) => page.getByRole('dialog', { name: 'Add to playlist' });
const trackTitles = (page: Page) => page.getByTestId('playlist-track').getByTestId('song-title');
const bar = (page: Page) => page.getByRole('region', { name: 'Player' });

test('create from the sidebar, add from cards (and a duplicate), reorder, remove, play, share, delete', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');

  await test.step('create from the sidebar, on any screen', async () => {
    await sidebar(page).getByRole('button', { name: 'Create Playlist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Playlist' });
    await expect(dialog.getByRole('switch', { name: 'Public' })).toBeChecked();
    // Spec §5: a blank title (spaces only) is refused before anything is sent.
    await dialog.getByLabel('Title').fill('   ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await expect(dialog.getByLabel('Title')).toBeFocused();
    await dialog.getByLabel('Title').fill(`  ${TITLE}  `);
    await dialog.getByLabel('Description').fill('Songs for the long drive');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Playlist created successfully!', TITLE);
    await expect(dialog).toHaveCount(0);
    // An action, not a page: the listener is still home.
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('it leads /playlists', async () => {
    await sidebar(page).getByRole('link', { name: 'Your Library', exact: true }).click();
    await expect(page).toHaveURL(/\/playlists$/);
    const first = page.getByTestId('playlist-card').first();
    await expect(first).toContainText(TITLE);
    await expect(first).toContainText('0 tracks');
  });

  await test.step('add two songs from their cards, then one again', async () => {
    await page.goto('/');
    for (const title of [A, B]) {
      await card(page, title).getByRole('button', { name: 'Add to playlist' }).click();
      await expect(addDialog(page)).toBeVisible();
      await addDialog(page).getByRole('button', { name: TITLE, exact: true }).click();
      await expectToast(page, `Added to "${TITLE}"`);
      await expect(addDialog(page)).toHaveCount(0);
    }

    await card(page, A).getByRole('button', { name: 'Add to playlist' }).click();
    expect(await seriousAxeViolations(page, '[role="dialog"]')).toEqual([]);
    await addDialog(page).getByRole('button', { name: TITLE, exact: true }).click();
    await expectToast(page, 'Already in playlist', `This song is already in "${TITLE}"`);
    // Spec §5: the dialog stays open for another choice.
    await expect(addDialog(page)).toBeVisible();
    await expect(addDialog(page).getByRole('button', { name: TITLE, exact: true })).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(addDialog(page)).toHaveCount(0);
  });

  await test.step('open it: tracks in the order they were added', async () => {
    await sidebar(page).getByRole('link', { name: 'Your Library', exact: true }).click();
    await page.getByTestId('playlist-card').filter({ hasText: TITLE }).click();
    await expect(page).toHaveURL(/\/playlist\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 2, name: TITLE })).toBeVisible();
    await expect(page.getByText('Songs for the long drive')).toBeVisible();
    await expect(page.getByText('Public playlist')).toBeVisible();
    await expect(trackTitles(page)).toHaveText([A, B]);
    expect(await seriousAxeViolations(page, 'main')).toEqual([]);
  });

  await test.step('reorder by keyboard; the order is kept', async () => {
    await page.getByRole('button', { name: `Reorder ${B}` }).focus();
    await page.keyboard.press('Space');
    await expect(page.getByText(`Picked up ${B} at position 2 of 2.`)).toBeAttached();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByText(`${B} moved to position 1 of 2.`)).toBeAttached();
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/tracks/'),
    );
    await page.keyboard.press('Space');
    // Shown at once, before the server answers.
    await expect(trackTitles(page)).toHaveText([B, A]);
    await expect(page.getByRole('button', { name: `Reorder ${B}` })).toBeFocused();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(trackTitles(page)).toHaveText([B, A]);
  });

  await test.step('remove a track', async () => {
    await page.getByRole('button', { name: `Remove ${A} from playlist` }).click();
    await expectToast(page, 'Track removed from playlist', A);
    await expect(trackTitles(page)).toHaveText([B]);
    await expect(page.getByText('1 track', { exact: false })).toBeVisible();
  });

  await test.step('Play All starts the first track', async () => {
    await page.getByRole('button', { name: 'Play All' }).click();
    await expect(bar(page).getByTestId('player-title')).toHaveText(B);
  });

  const url = page.url();
  await test.step('another listener: read-only while public, not found once private', async () => {
    const other = await browser.newContext({ storageState: ARTIST_STATE });
    const theirs = await other.newPage();
    await theirs.goto(url);
    await expect(theirs.getByRole('heading', { level: 2, name: TITLE })).toBeVisible();
    await expect(theirs.getByTestId('playlist-track')).toHaveCount(1);
    await expect(theirs.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(theirs.getByRole('button', { name: `Reorder ${B}` })).toHaveCount(0);
    await expect(theirs.getByRole('button', { name: `Remove ${B} from playlist` })).toHaveCount(0);

    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit playlist' });
    await edit.getByRole('switch', { name: 'Public' }).click();
    await expect(edit.getByRole('switch', { name: 'Public' })).not.toBeChecked();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toHaveCount(0);
    await expect(page.getByText('Private playlist')).toBeVisible();

    await theirs.reload();
    await expect(theirs.getByRole('heading', { name: 'Playlist not found' })).toBeVisible();
    await other.close();
  });

  await test.step('delete it: back to /playlists without it', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete "${TITLE}"?` });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/playlists$/);
    await expect(page.getByTestId('playlist-card').filter({ hasText: TITLE })).toHaveCount(0);
  });
});
