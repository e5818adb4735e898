// Podcasts in the browser (docs/decisions/0018). The fixture artist creates a show on
// /podcast-upload (a check's message first), is taken to the episode form with the show
// chosen and uploads an episode (a generated WAV through the Audio file input), landing on
// the show's page. Then the shared listener opens /podcasts, picks the show, plays the
// episode (the bar shows it with the show's title), sets 1.5× (the audio element's rate),
// skips forward 30 s and back 15 s, and pauses: the place is saved on the server. A second
// browser context for the same listener (another device) sees 'In progress', resumes there,
// and skips to the end with → (then 'Played').
import type { Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { coverPng, sineWav } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const SHOW = `Night Signals ${run}`;
const EPISODE = `Pilot ${run}`;
let showId = '';

const bar = (page: Page) => page.getByRole('region', { name: 'Player' });
const audio = (page: Page) => page.getByTestId('player-audio');
const episodeRow = (page: Page) => page.getByTestId('episode').filter({ hasText: EPISODE });
const paused = (page: Page) => audio(page).evaluate((a: HTMLAudioElement) => a.paused);
const position = (page: Page) => audio(page).evaluate((a: HTMLAudioElement) => a.currentTime);

// The uploaded WAV itself plays, whatever the media pipeline has made by then.
const originalQuality = (page: Page) =>
  page.addInitScript(() => localStorage.setItem('canto:quality', 'high'));

test.describe('the artist', () => {
  test.use({ storageState: ARTIST_STATE });

  test('creates a show, then uploads its first episode', async ({ page }) => {
    requireArtistSession();
    // The upload is decoded to be measured, beside the other helpers' work on a busy machine.
    test.setTimeout(180_000);
    await page.goto('/podcast-upload');
    await page.getByRole('tab', { name: 'Create Show' }).click();

    // The form checks before sending, with the spec's message.
    await page.getByRole('button', { name: 'Create Show' }).click();
    await expectToast(page, 'Error', 'Please enter a podcast title');
    await expect(page.getByLabel('Title', { exact: true })).toBeFocused();

    await page.getByLabel('Title', { exact: true }).fill(SHOW);
    await page
      .getByLabel('Description', { exact: true })
      .fill('Tones after midnight, one episode at a time.');
    await page.getByLabel('Cover image', { exact: true }).setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await coverPng(),
    });
    await page.getByLabel('Category', { exact: true }).selectOption('Technology');
    await page.getByRole('button', { name: 'Create Show' }).click();
    await expectToast(page, 'Podcast created! Now you can upload episodes.');

    // On to the episode form, the new show chosen.
    await expect(page.getByRole('tab', { name: 'Upload Episode' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const podcast = page.getByLabel('Podcast', { exact: true });
    await expect(podcast.locator('option:checked')).toHaveText(SHOW);
    showId = await podcast.inputValue();
    await expect(page.getByLabel('Episode number', { exact: true })).toHaveValue('1');

    await page.getByRole('button', { name: 'Upload Episode' }).click();
    await expectToast(page, 'Upload Failed', 'Please enter an episode title');

    await page.getByLabel('Title', { exact: true }).fill(EPISODE);
    await page.getByLabel('Description', { exact: true }).fill('Where the signal starts.');
    // Two minutes at 8 kHz: small to send, long enough to never end mid-journey.
    await page.getByLabel('Audio file', { exact: true }).setInputFiles({
      name: 'pilot.wav',
      mimeType: 'audio/wav',
      buffer: sineWav({ seconds: 120, hz: 440, sampleRate: 8000 }),
    });
    await page.getByRole('button', { name: 'Upload Episode' }).click();
    await expectToast(page, 'Episode uploaded successfully!');

    // The show's page, with the new episode and the feed podcast apps subscribe to.
    await expect(page).toHaveURL(new RegExp(`/podcasts\\?show=${showId}$`), { timeout: 150_000 });
    await expect(page.getByRole('heading', { name: SHOW })).toBeVisible();
    await expect(episodeRow(page)).toContainText('Episode 1');
    await expect(episodeRow(page)).toContainText('2 min');
    await expect(page.getByRole('link', { name: 'RSS feed' })).toHaveAttribute(
      'href',
      new RegExp(`/api/podcasts/${showId}/feed\\.xml$`),
    );
  });
});

test.describe('the listener', () => {
  test.use({ storageState: LISTENER_STATE });

  test('plays it at 1.5× with skips, pauses, and another device resumes there', async ({
    page,
    browser,
    baseURL,
  }) => {
    expect(showId, 'the artist journey made the show').not.toBe('');
    await originalQuality(page);
    await page.goto('/podcasts');
    await page.getByRole('link', { name: SHOW }).click();
    await expect(page).toHaveURL(new RegExp(`/podcasts\\?show=${showId}$`));
    await expect(
      page.getByRole('region', { name: SHOW }).getByText(E2E_ARTIST.displayName),
    ).toBeVisible();
    // Not started yet: no state shown.
    await expect(episodeRow(page).getByTestId('episode-state')).toHaveCount(0);

    expect(await seriousAxeViolations(page, 'main')).toEqual([]);

    await episodeRow(page)
      .getByRole('button', { name: `Play ${EPISODE}` })
      .click();
    await expect(bar(page).getByTestId('player-title')).toHaveText(EPISODE);
    await expect(bar(page).getByTestId('player-artist')).toHaveText(SHOW);
    await expect.poll(() => paused(page)).toBe(false);

    // Speed: applied to the element, pitch kept.
    await bar(page).getByLabel('Playback speed').selectOption('1.5');
    await expect
      .poll(() => audio(page).evaluate((a: HTMLAudioElement) => [a.playbackRate, a.preservesPitch]))
      .toEqual([1.5, true]);

    const before = await position(page);
    await bar(page).getByRole('button', { name: 'Skip forward 30 seconds' }).click();
    await expect.poll(() => position(page)).toBeGreaterThanOrEqual(before + 30);
    const ahead = await position(page);
    await bar(page).getByRole('button', { name: 'Skip back 15 seconds' }).click();
    await expect.poll(() => position(page)).toBeLessThan(ahead - 14);

    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => paused(page)).toBe(true);
    const saved = await position(page);
    expect(saved).toBeGreaterThan(15);
    await expect(episodeRow(page).getByTestId('episode-state')).toContainText('In progress');

    // The server has the place (the pause saved it).
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/podcasts/${showId}`);
        const detail = (await res.json()) as {
          episodes: Array<{ title: string; progress: { position: number } | null }>;
        };
        const at = detail.episodes.find((e) => e.title === EPISODE)?.progress?.position ?? -1;
        return Math.abs(at - saved);
      })
      .toBeLessThan(0.5);

    // Another device: same listener, its own browser storage.
    const device = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
    const other = await device.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(e.message));
    await originalQuality(other);
    await other.goto('/podcasts');
    await other.getByRole('link', { name: SHOW }).click();
    await expect(episodeRow(other).getByTestId('episode-state')).toContainText('In progress');
    await expect(episodeRow(other).getByTestId('episode-state')).toContainText('left');
    await episodeRow(other)
      .getByRole('button', { name: `Play ${EPISODE}` })
      .click();
    await expect(bar(other).getByTestId('player-artist')).toHaveText(SHOW);
    await expect.poll(() => paused(other)).toBe(false);
    const resumed = await position(other);
    expect(resumed).toBeGreaterThanOrEqual(saved - 1);
    expect(resumed).toBeLessThan(saved + 5);
    // Speed is a choice per device: this one plays at 1×.
    expect(await audio(other).evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1);

    // → skips forward 30 s while an episode plays; at the end it counts as played, here and
    // on the server.
    await other.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const from = await position(other);
    await other.keyboard.press('ArrowRight');
    await expect.poll(() => position(other)).toBeGreaterThanOrEqual(from + 30);
    for (let i = 0; i < 3; i++) await other.keyboard.press('ArrowRight');
    await expect(episodeRow(other).getByTestId('episode-state')).toHaveText('Played');
    await expect.poll(() => paused(other)).toBe(true);
    const res = await other.request.get(`/api/podcasts/${showId}`);
    const detail = (await res.json()) as {
      episodes: Array<{ title: string; progress: { completed: boolean } | null }>;
    };
    expect(detail.episodes.find((e) => e.title === EPISODE)?.progress?.completed).toBe(true);
    expect(errors).toEqual([]);
    await device.close();
  });
});
