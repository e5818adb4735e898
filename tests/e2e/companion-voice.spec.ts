// The AI companion by voice (spec §4, §7, §9): the browser's microphone hears 'play something
// jazzy' (espeak-ng's voice through Chromium's fake device, then a pause, looped); the page
// sends it as 24 kHz PCM frames, the status says 'Listening...' while the user speaks, the
// transcript shows what was heard, and the jazz song starts in the real player. Skipped where
// the machine cannot speak the sentence or the server cannot hear (no offline recognizer).
import type { BrowserContext, Page } from '@playwright/test';
import { deleteArtistSongs, uploadTone } from './media.ts';
import { ARTIST_STATE, expect, expectToast, requireArtistSession, test } from './support.ts';
import { fakeMicrophone, spokenWav } from './fake-microphone.ts';
import { signUpSubscriber } from './subscriber.ts';

/** CI (.ci/run) installs the speech packages: there a skip would hide a broken voice path. */
const speechRequired = process.env.CANTO_REQUIRE_SPEECH === '1';
const SAID = 'play something jazzy';
const spoken = spokenWav(SAID, 6);
test.use({ launchOptions: fakeMicrophone(spoken ?? '/dev/null') });

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const JAZZ = `Voice ${run} Night Train`;
const songIds: string[] = [];
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser, playwright, baseURL }) => {
  if (speechRequired)
    expect(spoken, 'espeak-ng is required (CANTO_REQUIRE_SPEECH=1)').not.toBeNull();
  test.skip(spoken === null, 'espeak-ng is not installed: nothing to say to the microphone');
  test.setTimeout(180_000);
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  songIds.push(
    await uploadTone(artist, {
      title: JAZZ,
      seconds: 120,
      hz: 523,
      genre: 'Jazz',
      sampleRate: 8000,
    }),
  );
  await artist.dispose();
  context = await browser.newContext({ baseURL, permissions: ['microphone'] });
  page = await context.newPage();
  await signUpSubscriber(page, 'companion-voice', 'Voice Listener');
});

test.afterAll(async ({ playwright, baseURL }) => {
  await context?.close();
  await deleteArtistSongs(playwright, baseURL, songIds);
});

test("saying 'play something jazzy' plays the jazz song", async () => {
  test.setTimeout(90_000);
  const panel = page.getByRole('region', { name: 'AI Music Companion' });
  const status = panel.getByRole('status', { name: 'Companion status' });
  // Each status the panel showed, in order.
  await page.goto('/');
  await status.evaluate((region) => {
    const seen = window as unknown as { statuses: string[] };
    seen.statuses = [];
    new MutationObserver(() => seen.statuses.push(region.textContent ?? '')).observe(region, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  await panel.getByRole('button', { name: 'Start AI Companion' }).click();
  await expectToast(page, 'AI Companion Connected', 'Start talking to discover music!');
  const textOnly = (await panel.getByText('text only').count()) > 0;
  if (speechRequired) expect(textOnly, 'the server must hear (CANTO_REQUIRE_SPEECH=1)').toBe(false);
  test.skip(textOnly, 'the server hears no speech here (no offline recognizer)');
  await expect(panel.getByText('Microphone on')).toBeVisible();

  const transcript = panel.getByRole('log', { name: 'Transcript' });
  // The offline recognizer may mishear a loop (a command of its grammar all the same): the
  // sentence is said again after each pause until it is heard.
  await expect(
    transcript.getByRole('listitem').filter({ hasText: `You: ${SAID}` }),
  ).not.toHaveCount(0, { timeout: 45_000 });
  await expect(page.getByRole('region', { name: 'Player' }).getByTestId('player-title')).toHaveText(
    JAZZ,
    { timeout: 30_000 },
  );
  await expect
    .poll(() => page.getByTestId('player-audio').evaluate((a: HTMLAudioElement) => a.paused))
    .toBe(false);
  const statuses = await page.evaluate(() => (window as { statuses?: string[] }).statuses ?? []);
  // Ready, then listening while the sentence was said, then ready again.
  const listening = statuses.indexOf('Listening...');
  expect(listening, statuses.join(' → ')).toBeGreaterThan(statuses.indexOf('Ready to help'));
  expect(statuses.slice(listening)).toContain('Ready to help');

  await panel.getByRole('button', { name: 'Disconnect' }).click();
  await expect(status).toHaveText('Not connected');
  await expect(panel.getByText('Microphone on')).toHaveCount(0);
});
