// Liked songs, as the shared listener: like two songs from their cards (toast, pressed),
// find them on /liked newest first, Play All (the first plays, the other is queued), then
// unlike both from /liked (toast, rows gone, empty state). The fixture artist uploads the two
// songs through the API first and deletes them at the end.
import type { Page } from '@playwright/test';
import { E2E_ARTIST, expect, expectToast, LISTENER_STATE, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: LISTENER_STATE });

const run = Date.now().toString(36);
const A = `Liked ${run} One`;
const B = `Liked ${run} Two`;
const songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  // Each upload is decoded to be measured, beside other work on a busy machine.
  test.setTimeout(180_000);
  // 2 minutes at 8 kHz: small to upload, long enough to never end mid-journey.
  songIds.push(...(await uploadArtistTones(playwright, baseURL, [A, B], 120)));
});

test.afterAll(async ({ playwright, baseURL }) => {
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const card = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const likedRow = (page: Page, title: string) =>
  page.getByTestId('liked-song').filter({ hasText: title });
const likeButton = (scope: ReturnType<typeof card>) =>
  scope.getByRole('button', { name: 'Like', exact: true });
const bar = (page: Page) => page.getByRole('region', { name: 'Player' });

test('like from cards, play all on /liked, unlike there down to the empty state', async ({
  page,
}) => {
  await page.goto('/');
  for (const title of [A, B]) {
    const like = likeButton(card(page, title));
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expectToast(page, 'Added to liked songs', title);
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(like).toBeEnabled();
  }

  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Liked Songs' })
    .click();
  await expect(page).toHaveURL(/\/liked$/);
  // Newest like first.
  await expect(page.getByTestId('liked-song')).toHaveCount(2);
  await expect(page.getByTestId('liked-song').first()).toContainText(B);
  await expect(page.getByTestId('liked-song').nth(1)).toContainText(A);
  await expect(likeButton(likedRow(page, A))).toHaveAttribute('aria-pressed', 'true');

  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  // Play All: the first row plays, the rest is queued.
  await page.getByRole('button', { name: 'Play All' }).click();
  await expect(bar(page).getByTestId('player-title')).toHaveText(B);
  await expect(bar(page).getByTestId('player-artist')).toHaveText(E2E_ARTIST.displayName);
  await expect(bar(page).getByTestId('queue-badge')).toHaveText('1');
  // The player bar's own Like shows the playing song's state.
  await expect(likeButton(bar(page))).toHaveAttribute('aria-pressed', 'true');

  // Unlike from the list: the row goes, and with the last one the empty state shows.
  await likeButton(likedRow(page, B)).click();
  await expectToast(page, 'Song removed from liked songs', B);
  await expect(likedRow(page, B)).toHaveCount(0);
  await expect(likeButton(bar(page))).toHaveAttribute('aria-pressed', 'false');
  await likeButton(likedRow(page, A)).click();
  await expectToast(page, 'Song removed from liked songs', A);
  await expect(page.getByText('No liked songs yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play All' })).toHaveCount(0);

  // Back on the cards, both show as not liked.
  await page.goto('/');
  for (const title of [A, B]) {
    await expect(likeButton(card(page, title))).toHaveAttribute('aria-pressed', 'false');
  }
});
