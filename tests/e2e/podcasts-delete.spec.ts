// The fixture artist removes what was made by mistake: creates a show and uploads an episode
// on /podcast-upload (as the podcasts journey does), then on the show's page deletes the
// episode (a Cancel first, then Delete) and the show itself, landing on /podcasts without it.
// The shared listener sees neither Delete button. The show is removed at the end either way.
import type { Page } from '@playwright/test';
import {
  ARTIST_STATE,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { sineWav } from './media.ts';

test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const SHOW = `Mistaken Show ${run}`;
const EPISODE = `Mistaken Episode ${run}`;
let showId = '';

const episodeRow = (page: Page) => page.getByTestId('episode').filter({ hasText: EPISODE });

test.afterAll(async ({ playwright, baseURL }) => {
  if (!showId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/podcasts/${showId}`); // 404 once the journey deleted it
  await api.dispose();
});

test('an artist deletes an episode, then the show; a listener gets no Delete buttons', async ({
  page,
  browser,
  baseURL,
}) => {
  // The upload is decoded to be measured, beside other work on a busy machine.
  test.setTimeout(180_000);
  await page.goto('/podcast-upload');
  await page.getByRole('tab', { name: 'Create Show' }).click();
  await page.getByLabel('Title', { exact: true }).fill(SHOW);
  await page.getByRole('button', { name: 'Create Show' }).click();
  await expectToast(page, 'Podcast created! Now you can upload episodes.');

  const podcast = page.getByLabel('Podcast', { exact: true });
  await expect(podcast.locator('option:checked')).toHaveText(SHOW);
  showId = await podcast.inputValue();
  await page.getByLabel('Title', { exact: true }).fill(EPISODE);
  await page.getByLabel('Audio file', { exact: true }).setInputFiles({
    name: 'mistake.wav',
    mimeType: 'audio/wav',
    buffer: sineWav({ seconds: 5, hz: 330, sampleRate: 8000 }),
  });
  await page.getByRole('button', { name: 'Upload Episode' }).click();
  await expectToast(page, 'Episode uploaded successfully!');
  await expect(page).toHaveURL(new RegExp(`/podcasts\\?show=${showId}$`), { timeout: 150_000 });
  await expect(episodeRow(page)).toBeVisible();

  // The listener sees the show and its episode, without the creator's Delete buttons.
  const listener = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const listenerPage = await listener.newPage();
  await listenerPage.goto(`/podcasts?show=${showId}`);
  await expect(episodeRow(listenerPage)).toBeVisible();
  await expect(listenerPage.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await listener.close();

  // The episode: Cancel keeps it, Delete removes it.
  const deleteEpisode = episodeRow(page).getByRole('button', { name: `Delete ${EPISODE}` });
  await deleteEpisode.click();
  const confirmEpisode = page.getByRole('dialog', { name: 'Delete episode?' });
  await expect(confirmEpisode).toBeVisible();
  await confirmEpisode.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmEpisode).toBeHidden();
  await expect(episodeRow(page)).toBeVisible();
  await expect(deleteEpisode).toBeFocused();

  await deleteEpisode.click();
  await confirmEpisode.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Episode deleted');
  await expect(episodeRow(page)).toHaveCount(0);
  // Its row and button are gone: focus lands on the list's heading, not on the page's body.
  await expect(page.getByRole('heading', { name: 'Episodes', exact: true })).toBeFocused();
  await expect(page.getByText('No episodes yet')).toBeVisible();
  await expect(page.getByText('0 episodes')).toBeVisible();

  // The show: back on /podcasts, without it.
  await page.getByRole('button', { name: 'Delete show', exact: true }).click();
  const confirmShow = page.getByRole('dialog', { name: 'Delete show?' });
  await expect(confirmShow).toBeVisible();
  await confirmShow.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Show deleted');
  await expect(page).toHaveURL(/\/podcasts$/);
  await expect(page.getByRole('heading', { name: 'All shows' })).toBeVisible();
  await expect(page.getByRole('link', { name: SHOW })).toHaveCount(0);
  const gone = await page.request.get(`/api/podcasts/${showId}`);
  expect(gone.status()).toBe(404);
});
