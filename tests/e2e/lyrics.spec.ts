// Synced lyrics: the fixture artist adds LRC lyrics to their song in its Edit dialog (a time
// past the song's end is refused first, in the form), plays it, opens Lyrics in the player bar
// and sees the highlighted line (aria-current) follow the music; a click on a later line seeks
// there. The song is a 30 s tone uploaded through the API and deleted at the end.
import type { Page } from '@playwright/test';
import { ARTIST_STATE, E2E_ARTIST, expect, expectToast, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: ARTIST_STATE });

const run = Date.now().toString(36);
const title = `Lyrics ${run}`;
const songIds: string[] = [];

const LRC = [
  '[ti:Sing along]',
  '[00:00.50]First line',
  '[00:03.00]Second line',
  '[00:06.00]Third line',
  '[00:20.00]Far line',
].join('\n');

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  songIds.push(...(await uploadArtistTones(playwright, baseURL, [title], 30)));
});

test.afterAll(async ({ playwright, baseURL }) => {
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const card = (page: Page) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const bar = (page: Page) => page.getByRole('region', { name: 'Player' });
const position = (page: Page) =>
  page.getByTestId('player-audio').evaluate((a: HTMLAudioElement) => a.currentTime);

test('an artist adds LRC lyrics; the Lyrics view follows the music and seeks on a click', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await card(page)
    .getByRole('button', { name: `More actions for ${title}` })
    .click();
  await page.getByRole('menuitem', { name: 'Edit song' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit song' });
  const lyrics = edit.getByRole('textbox', { name: 'Lyrics' });
  await expect(lyrics).toHaveAccessibleDescription(
    'Paste plain lyrics or LRC with [mm:ss.xx] timestamps',
  );

  // Past the 30 s song's end: refused in the form, with the line it is on.
  await lyrics.fill(`${LRC}\n[00:45.00]Too late`);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(
    page,
    'Error',
    'Lyrics line 6: 00:45.00 is past the end of the song (00:30.00)',
  );
  await expect(lyrics).toHaveAttribute('aria-invalid', 'true');

  await lyrics.fill(LRC);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Song updated successfully');
  await expect(edit).toBeHidden();

  await card(page)
    .getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect(bar(page).getByTestId('player-title')).toHaveText(title);
  const toggle = bar(page).getByRole('button', { name: 'Lyrics' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('complementary', { name: 'Lyrics' });
  await expect(panel).toBeVisible();
  const line = (text: string) => panel.getByRole('button', { name: text, exact: true });

  // The highlighted line follows the music: the first, then the second once 3 s have played.
  await expect(line('First line')).toHaveAttribute('aria-current', 'true');
  await expect(line('Second line')).toHaveAttribute('aria-current', 'true');
  await expect(line('First line')).not.toHaveAttribute('aria-current', 'true');
  await expect(panel.locator('[aria-current="true"]')).toHaveCount(1);
  expect(await seriousAxeViolations(page, '[data-testid="lyrics-panel"]')).toEqual([]);

  // A click on a later line plays from its time.
  await line('Far line').click();
  await expect(line('Far line')).toHaveAttribute('aria-current', 'true');
  expect(await position(page)).toBeGreaterThanOrEqual(20);
  await expect(line('Far line')).toBeInViewport();

  // The toggle closes it again.
  await toggle.click();
  await expect(panel).toBeHidden();
});
