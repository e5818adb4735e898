// The AI music companion (spec §2, §4, §7, §8) in the browser against the real server's local
// engine: a premium subscriber starts it on Home (a fake microphone that hears silence, so no
// speech starts by itself), sees 'Ready to help' and the toast, types 'play something jazzy',
// and the companion's tool calls, run by this page, start the jazz song in the real player;
// Disconnect returns to 'Not connected' and ends the microphone's tracks. A refused
// microphone is the 'Error' toast with typing still open; a socket the server closes is
// 'Connection Error'. A free listener has no panel.
import type { BrowserContext, Page } from '@playwright/test';
import { deleteArtistSongs, uploadTone } from './media.ts';
import {
  ARTIST_STATE,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { seriousAxeViolations } from './axe.ts';
import { fakeMicrophone, silenceWav } from './fake-microphone.ts';
import { signUpSubscriber } from './subscriber.ts';

// This file's browser has a microphone that hears silence (no speech starts by itself); the
// other journeys' browsers keep the config's arguments only.
test.use({ launchOptions: fakeMicrophone(silenceWav()) });

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36);
const JAZZ = `Companion ${run} Blue Smoke`;
const songIds: string[] = [];
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser, playwright, baseURL }) => {
  test.setTimeout(180_000);
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  songIds.push(
    await uploadTone(artist, {
      title: JAZZ,
      seconds: 120,
      hz: 440,
      genre: 'Jazz',
      sampleRate: 8000,
    }),
  );
  await artist.dispose();

  // A listener of its own who becomes a subscriber through the local test-mode checkout.
  context = await browser.newContext({ baseURL, permissions: ['microphone'] });
  page = await context.newPage();
  await signUpSubscriber(page, 'companion', 'Companion Listener');
  // Keeps the microphone streams the page opens, to see Disconnect end them.
  await page.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const open = devices.getUserMedia.bind(devices);
    const kept: MediaStream[] = [];
    (window as unknown as { micStreams: MediaStream[] }).micStreams = kept;
    devices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      kept.push(stream);
      return stream;
    };
  });
});

test.afterAll(async ({ playwright, baseURL }) => {
  await context?.close();
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const panel = () => page.getByRole('region', { name: 'AI Music Companion' });
const status = () => panel().getByRole('status', { name: 'Companion status' });
const bar = () => page.getByRole('region', { name: 'Player' });
const audio = () => page.getByTestId('player-audio');

test('a subscriber starts the companion on Home: Ready to help, and the toast', async () => {
  await page.goto('/');
  await expect(panel()).toBeVisible();
  await expect(status()).toHaveText('Not connected');
  expect(await seriousAxeViolations(page, '[data-testid="companion-panel"]')).toEqual([]);

  await panel().getByRole('button', { name: 'Start AI Companion' }).click();
  await expectToast(page, 'AI Companion Connected', 'Start talking to discover music!');
  await expect(status()).toHaveText('Ready to help');
  // Keyboard focus moves to the message box that replaced Start.
  await expect(panel().getByRole('textbox', { name: 'Message' })).toBeFocused();
  // The microphone started after session.created (or the server said it does not listen).
  await expect(
    panel()
      .getByText(/^(Microphone on|text only)$/)
      .first(),
  ).toBeVisible();
  expect(await seriousAxeViolations(page, '[data-testid="companion-panel"]')).toEqual([]);
});

test("typing 'play something jazzy' plays the jazz song in the real player", async () => {
  // 'Speaking' shows only while the answer's audio arrives: note whether it ever did.
  await panel()
    .getByRole('status', { name: 'Assistant audio' })
    .evaluate((region) => {
      const seen = window as unknown as { companionSpoke?: boolean };
      seen.companionSpoke = false;
      new MutationObserver(() => {
        if (region.textContent?.includes('Speaking')) seen.companionSpoke = true;
      }).observe(region, { childList: true, subtree: true, characterData: true });
    });
  const box = panel().getByRole('textbox', { name: 'Message' });
  await box.fill('play something jazzy');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const transcript = panel().getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('You: play something jazzy');

  await expect(bar().getByTestId('player-title')).toHaveText(JAZZ, { timeout: 20_000 });
  await expect.poll(() => audio().evaluate((a: HTMLAudioElement) => a.paused)).toBe(false);
  const at = await audio().evaluate((a: HTMLAudioElement) => a.currentTime);
  await expect
    .poll(() => audio().evaluate((a: HTMLAudioElement) => a.currentTime))
    .toBeGreaterThan(at + 0.5);
  // The companion's answer names the song it started.
  await expect(transcript.getByRole('listitem').last()).toContainText(JAZZ, {
    timeout: 20_000,
  });
  // A server that speaks (espeak-ng here) sends the answer as audio too.
  if ((await panel().getByText('text only').count()) === 0) {
    await expect
      .poll(() => page.evaluate(() => (window as { companionSpoke?: boolean }).companionSpoke))
      .toBe(true);
    await expect(panel().getByRole('status', { name: 'Assistant audio' })).toHaveText('', {
      timeout: 20_000,
    });
  }
  expect(await seriousAxeViolations(page, '[data-testid="companion-panel"]')).toEqual([]);
});

test('the transcript keeps the last 5 lines', async () => {
  const box = panel().getByRole('textbox', { name: 'Message' });
  const items = panel().getByRole('log', { name: 'Transcript' }).getByRole('listitem');
  for (const said of ['pause', 'resume']) {
    const before = await items.allTextContents();
    await box.fill(said);
    await panel().getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => items.allTextContents()).not.toEqual(before);
    await expect(items.last()).toContainText('Companion: ', { timeout: 20_000 });
  }
  await expect(items).toHaveCount(5);
  await expect(items.first()).toContainText('Companion: ');
  await expect.poll(() => audio().evaluate((a: HTMLAudioElement) => a.paused)).toBe(false);
});

test("Disconnect returns to 'Not connected'", async () => {
  await panel().getByRole('button', { name: 'Disconnect' }).click();
  await expect(status()).toHaveText('Not connected');
  await expect(panel().getByRole('button', { name: 'Start AI Companion' })).toBeFocused();
  await expect(panel().getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(panel().getByText('Microphone on')).toHaveCount(0);
  // The microphone is released: every track the page opened has ended.
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { micStreams: MediaStream[] }).micStreams.flatMap((s) =>
          s.getTracks().map((t) => t.readyState),
        ),
      ),
    )
    .toEqual(['ended']);
  // The music goes on: the companion only drove the player.
  await expect(bar().getByTestId('player-title')).toHaveText(JAZZ);
  await bar().getByRole('button', { name: 'Pause' }).click();
});

test("a refused microphone: the 'Error' toast, and typing still works", async () => {
  const denied = await context.newPage();
  await denied.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await denied.goto('/');
  const here = denied.getByRole('region', { name: 'AI Music Companion' });
  await here.getByRole('button', { name: 'Start AI Companion' }).click();
  await expectToast(denied, 'Error', 'Permission denied');
  await expect(here.getByRole('status', { name: 'Companion status' })).toHaveText('Ready to help');
  await expect(here.getByText('Microphone on')).toHaveCount(0);
  await here.getByRole('textbox', { name: 'Message' }).fill('pause');
  await here.getByRole('button', { name: 'Send' }).click();
  await expect(here.getByRole('log', { name: 'Transcript' }).getByRole('listitem')).toHaveCount(2, {
    timeout: 20_000,
  });
  await here.getByRole('button', { name: 'Disconnect' }).click();
  await denied.close();
});

test("a conversation the server ends (a third one elsewhere) shows 'Connection Error'", async () => {
  await page.goto('/');
  await panel().getByRole('button', { name: 'Start AI Companion' }).click();
  await expect(status()).toHaveText('Ready to help');
  await expect(panel().getByRole('textbox', { name: 'Message' })).toBeFocused();
  // A user holds two companion sockets; a third closes the oldest, this page's (ADR 0033).
  const other = await context.newPage();
  await other.goto('/');
  await other.evaluate(async () => {
    const url = `ws://${location.host}/api/ai/companion`;
    for (let i = 0; i < 2; i++) {
      const socket = new WebSocket(url);
      await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
    }
  });
  await expectToast(page, 'Connection Error', 'Failed to connect to AI companion');
  await expect(status()).toHaveText('Not connected');
  // The message box that had focus is gone: focus is on Start, not lost to the page.
  await expect(panel().getByRole('button', { name: 'Start AI Companion' })).toBeFocused();
  await other.close();
});

test('a free listener has no companion panel', async ({ browser, baseURL }) => {
  const free = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const home = await free.newPage();
  const checked = home.waitForResponse((r) => r.url().endsWith('/api/subscription'));
  await home.goto('/');
  expect((await (await checked).json()).subscribed).toBe(false);
  await expect(home.getByRole('region', { name: 'Recent Tracks' })).toBeVisible();
  await expect(home.getByRole('region', { name: 'AI Music Companion' })).toHaveCount(0);
  await free.close();
});
