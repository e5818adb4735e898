// The media pipeline's web side (docs/decisions/0014): the artist sees 'Processing…' on a
// just-uploaded song until the media pipeline has made its renditions; the player then streams the
// rendition of the listener's quality (Data saver 96, Normal 160, High = the original), keeps the
// choice per browser and applies the song's loudness gain. Renditions come from the real pipeline
// of the real server.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  requireArtistSession,
  test,
} from './support.ts';
import { sineWav } from './media.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const title = `Quality ${run}`;
// Long enough that the pipeline is still at work when Home first shows the song.
const SECONDS = 60;

interface Rendition {
  url: string;
  mime: string;
  codec: 'opus' | 'aac';
  bitrate_kbps: number;
}
interface Song {
  id: string;
  title: string;
  file_url: string;
  status: 'processing' | 'ready' | 'failed';
  renditions: Rendition[];
  loudness: { gain_db: number } | null;
}

let songId: string | null = null;

const recentCard = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

/** A signed URL without its signature: the window may roll between two reads. */
const pathOf = (url: string) => new URL(url, 'http://canto.test').pathname;

async function artistApi(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
) {
  return playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
}

// Home's newest songs, not search: search answers are kept for a few seconds, so a status
// read there may be older than the card's.
async function findSong(api: APIRequestContext): Promise<Song | undefined> {
  const res = await api.get('/api/songs/home');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { recent: Song[] }).recent.find((s) => s.title === title);
}

async function audioSrc(audio: Locator) {
  return pathOf(await audio.evaluate((a: HTMLAudioElement) => a.currentSrc || a.src));
}

async function chooseQuality(page: Page, name: 'Data saver' | 'Normal' | 'High') {
  // By keyboard: the menu button opens on Enter and the radio items are reachable.
  await page.getByRole('button', { name: 'Quality', exact: true }).press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('group', { name: 'Quality' })).toBeVisible();
  const item = menu.getByRole('menuitemradio', { name, exact: true });
  await item.focus();
  await item.press('Enter');
  await expect(menu).toBeHidden();
}

test.afterAll(async ({ playwright, baseURL }) => {
  if (!songId) return;
  const api = await artistApi(playwright, baseURL);
  await api.delete(`/api/songs/${songId}`);
  await api.dispose();
});

test('a just-uploaded song shows Processing… to its artist until its renditions are ready', async ({
  page,
  playwright,
  baseURL,
}) => {
  await page.goto('/upload');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Audio file').setInputFiles({
    name: 'quality.wav',
    mimeType: 'audio/wav',
    buffer: sineWav({ seconds: SECONDS }),
  });
  await page.getByRole('button', { name: 'Upload Song' }).click();
  await expectToast(page, 'Song uploaded successfully!');
  await expect(page).toHaveURL(/\/$/);

  const card = recentCard(page, title);
  await expect(card.getByText('Processing…')).toBeVisible();
  const api = await artistApi(playwright, baseURL);
  const uploaded = await findSong(api);
  if (!uploaded) throw new Error(`${title} is not found`);
  songId = uploaded.id;

  // It plays meanwhile, from the original upload.
  await card.getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` }).click();
  const bar = page.getByRole('region', { name: 'Player' });
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  const audio = page.getByTestId('player-audio');
  expect(await audioSrc(audio)).toBe(pathOf(uploaded.file_url));
  expect(await audio.getAttribute('data-gain')).toBe('1');
  await bar.getByRole('button', { name: 'Pause' }).click();

  // Home asks again on its own while the song processes: no reload here.
  await expect(card.getByText('Processing…')).toBeHidden({ timeout: 60_000 });
  await expect(card.getByTestId('song-media-status')).toHaveCount(0);

  const song = await findSong(api);
  await api.dispose();
  expect(song?.status).toBe('ready');
});

test('the player streams the rendition of the chosen quality, kept per browser, with the loudness gain', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await artistApi(playwright, baseURL);
  // The first test waited for 'ready'; on its own this one waits here.
  await expect.poll(async () => (await findSong(api))?.status, { timeout: 60_000 }).toBe('ready');
  const song = await findSong(api);
  await api.dispose();
  if (!song) throw new Error(`${title} is gone`);
  songId = song.id;

  const opus = (kbps: number) =>
    song.renditions.find((r) => r.codec === 'opus' && r.bitrate_kbps === kbps);
  const opus96 = opus(96);
  const opus160 = opus(160);
  if (!opus96 || !opus160) throw new Error(`no Opus 96/160: ${JSON.stringify(song.renditions)}`);
  expect(opus96.mime).toMatch(/^audio\/(webm|ogg); ?codecs="?opus/);

  await page.goto('/');
  await recentCard(page, title)
    .getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` })
    .click();
  const bar = page.getByRole('region', { name: 'Player' });
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  const audio = page.getByTestId('player-audio');

  // Normal is the default: Chromium plays Opus, so the 160 kbit/s Opus rendition.
  await expect.poll(() => audioSrc(audio)).toBe(pathOf(opus160.url));
  await expect(bar.getByTestId('player-elapsed')).not.toHaveText('0:00', { timeout: 10_000 });

  // The song's loudness gain is applied (Web Audio), and the volume stays the listener's.
  const gain = song.loudness ? 10 ** (song.loudness.gain_db / 20) : 1;
  expect(Number(await audio.getAttribute('data-gain'))).toBeCloseTo(gain, 5);
  expect(await audio.evaluate((a: HTMLAudioElement) => a.volume)).toBeCloseTo(0.7);

  // Data saver switches the file at once and carries on from where it was.
  const before = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
  await chooseQuality(page, 'Data saver');
  await expect.poll(() => audioSrc(audio)).toBe(pathOf(opus96.url));
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime))
    .toBeGreaterThanOrEqual(before);

  // High plays the original upload (Chromium plays WAV).
  await chooseQuality(page, 'High');
  await expect.poll(() => audioSrc(audio)).toBe(pathOf(song.file_url));

  // The choice is kept in this browser: after a reload Data saver is still chosen.
  await chooseQuality(page, 'Data saver');
  await page.reload();
  await recentCard(page, title)
    .getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect.poll(() => audioSrc(audio)).toBe(pathOf(opus96.url));
  await page.getByRole('button', { name: 'Quality', exact: true }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Data saver' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByRole('menuitemradio', { name: 'Normal' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await page.keyboard.press('Escape');
});
