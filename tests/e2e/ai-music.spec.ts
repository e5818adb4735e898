// The AI Music Creator (spec §2): an artist writes lyrics and draws a cover from prompts with
// the offline provider, downloads the cover, takes it to the upload as its cover art, and the
// uploaded song shows that picture. The song is deleted at the end either way.
import fs from 'node:fs';
import sharp from 'sharp';
import { ARTIST_STATE, expect, expectToast, requireArtistSession, test } from './support.ts';
import { sineWav } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const songTitle = `AI cover ${run}`;
let songId: string | null = null;

test.afterAll(async ({ playwright, baseURL }) => {
  if (!songId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/songs/${songId}`);
  await api.dispose();
});

/** A small grey thumbnail's pixels: two renderings of one picture are nearly equal. */
const thumbnail = (bytes: Buffer) =>
  sharp(bytes).resize(32, 32, { fit: 'fill' }).removeAlpha().raw().toBuffer();

test('lyrics and a cover from prompts; the cover downloads and becomes an upload’s cover art', async ({
  page,
  playwright,
  baseURL,
}) => {
  await page.goto('/ai-music');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Music Creator' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Generate Lyrics' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('tab', { name: 'Generate Cover Art' })).toBeVisible();
  const history = page.getByRole('region', { name: 'Your recent generations' });
  await expect(history.getByText('No generations yet.')).toBeVisible();

  // The client's check first, in the spec's words.
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expectToast(page, 'Prompt required');

  await page.getByLabel('Prompt').fill('Midnight train across the desert');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expectToast(page, 'Generated successfully!');
  const lyrics = page.getByLabel('Generated lyrics');
  await expect(lyrics).toContainText('[Verse 1]');
  await expect(lyrics).toContainText('[Chorus]');
  await expect(lyrics).toContainText('[Verse 2]');
  const firstLyrics = await lyrics.textContent();
  expect(firstLyrics!.toLowerCase()).toContain('desert');

  // Regenerate: a new seed, other lines.
  await page.getByRole('button', { name: 'Regenerate' }).click();
  await expect(lyrics).not.toHaveText(firstLyrics!);
  await expect(history.getByRole('button')).toHaveCount(2);

  await page.getByRole('tab', { name: 'Generate Cover Art' }).click();
  await page.getByLabel('Prompt').fill('Neon desert highway');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expectToast(page, 'Generated successfully!');
  const cover = page.getByRole('img', { name: 'Generated cover art: Neon desert highway' });
  await expect(cover).toBeVisible();
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1400);
  const coverUrl = (await cover.getAttribute('src'))!;
  expect(coverUrl).toMatch(/^\/media\/cover-art\/.+\.png$/);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('neon-desert-highway.png');
  const downloaded = fs.readFileSync((await download.path())!);
  expect(await sharp(downloaded).metadata()).toMatchObject({
    format: 'png',
    width: 1400,
    height: 1400,
  });

  // History: newest first; a click shows a generation again in its own tab.
  await expect(history.getByRole('button')).toHaveCount(3);
  await expect(history.getByRole('button').first()).toContainText('Neon desert highway');
  await history.getByRole('button').nth(2).click();
  await expect(page.getByRole('tab', { name: 'Generate Lyrics' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByLabel('Generated lyrics')).toHaveText(firstLyrics!);
  await history.getByRole('button').first().click();
  await expect(cover).toBeVisible();

  await page.getByRole('button', { name: 'Use as cover for an upload' }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByRole('img', { name: 'Chosen cover art' })).toBeVisible();
  await page.getByLabel('Title').fill(songTitle);
  await page.getByLabel('Genre').fill('Electronic');
  await page.getByLabel('Audio file').setInputFiles({
    name: 'sine.wav',
    mimeType: 'audio/wav',
    buffer: sineWav({ seconds: 2 }),
  });
  await page.getByRole('button', { name: 'Upload Song' }).click();
  await expectToast(page, 'Song uploaded successfully!');
  await expect(page).toHaveURL(/\/$/);

  const card = page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: songTitle, exact: true }) });
  await expect(card).toBeVisible();
  const shownCover = card.locator('img').first();
  await expect(shownCover).toHaveAttribute('src', /^\/media\/cover-art\//);
  const songCoverUrl = (await shownCover.getAttribute('src'))!;

  // The song's cover is the generated picture (re-encoded by the upload, so compared by eye).
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const search = await api.get(`/api/search?q=${encodeURIComponent(songTitle)}`);
  songId = ((await search.json()).songs as { id: string }[])[0]?.id ?? null;
  const stored = Buffer.from(await (await api.get(songCoverUrl)).body());
  await api.dispose();
  const [a, b] = [await thumbnail(downloaded), await thumbnail(stored)];
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference += Math.abs(a[i]! - b[i]!);
  expect(difference / a.length).toBeLessThan(8);
});

test('the AI Music Creator passes axe with lyrics, a cover and the history on screen', async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: ARTIST_STATE });
  const page = await context.newPage();
  await page.goto('/ai-music');
  const history = page.getByRole('region', { name: 'Your recent generations' });
  await expect(history.getByRole('button').first()).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  // The newest is the cover: shown in its tab.
  await history.getByRole('button').first().click();
  await expect(page.getByRole('img', { name: /^Generated cover art: / })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await history.getByRole('button').last().click();
  await expect(page.getByLabel('Generated lyrics')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
