// Synced lyrics: the fixture artist adds LRC lyrics to their song in its Edit dialog (a time
// past the song's end is refused first, in the form), plays it, opens Lyrics in the player bar
// and sees the highlighted line (aria-current) follow the music; a click on a later line seeks
// there. Then, on a phone, an upload through the Upload page with plain lyrics shows them
// unsynced in the now-playing view. The songs are deleted at the end.
import type { Page } from '@playwright/test';
import { ARTIST_STATE, E2E_ARTIST, expect, expectToast, test } from './support.ts';
import { deleteArtistSongs, sineWav, uploadArtistTones } from './media.ts';
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

test.describe.configure({ mode: 'serial' });

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

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const plainTitle = `Plain lyrics ${run}`;

  test('lyrics typed on upload show unsynced in the now-playing view', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/upload');
    await page.getByLabel('Title').fill(plainTitle);
    await page.getByLabel('Audio file').setInputFiles({
      name: 'plain.wav',
      mimeType: 'audio/wav',
      buffer: sineWav({ seconds: 8, sampleRate: 8000 }),
    });
    const lyrics = page.getByRole('textbox', { name: 'Lyrics' });
    // HTML is refused before anything is sent.
    await lyrics.fill('Hello\n<b>there</b>');
    await page.getByRole('button', { name: 'Upload Song' }).click();
    await expectToast(
      page,
      'Upload Failed',
      'Lyrics line 2: HTML is not allowed; use plain text or LRC',
    );
    await lyrics.fill('Hello there\n\nSecond verse');
    const uploaded = page.waitForResponse(
      (r) => r.url().endsWith('/api/songs') && r.request().method() === 'POST',
    );
    // The refusal's toast covers the button on a phone: the keyboard presses it.
    await page.getByRole('button', { name: 'Upload Song' }).press('Enter');
    const res = await uploaded;
    expect(res.status()).toBe(201);
    songIds.push(((await res.json()) as { id: string }).id);
    await expectToast(page, 'Song uploaded successfully!');

    const recent = page
      .getByRole('region', { name: 'Recent Tracks' })
      .getByTestId('song-card')
      .filter({ has: page.getByRole('heading', { name: plainTitle, exact: true }) });
    await recent
      .getByRole('button', { name: `Play ${plainTitle} by ${E2E_ARTIST.displayName}` })
      .click();
    await bar(page).getByRole('button', { name: 'Open now playing' }).tap();
    const view = page.getByRole('dialog', { name: 'Now playing' });
    const toggle = view.getByRole('button', { name: 'Lyrics' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const shown = view.getByRole('region', { name: 'Lyrics' });
    await expect(shown.getByText('Hello there')).toBeVisible();
    await expect(shown.getByText('Second verse')).toBeVisible();
    // Unsynced: no line is marked as the one being sung, and none is a seek button.
    await expect(shown.locator('[aria-current]')).toHaveCount(0);
    await expect(shown.getByRole('button')).toHaveCount(0);
    expect(await seriousAxeViolations(page, '[data-testid="now-playing-view"]')).toEqual([]);
  });
});
