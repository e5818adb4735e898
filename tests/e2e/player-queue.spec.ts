// The queue and the skip limit, as the shared (free) listener: play from a card; add to the queue
// (toast, badge); the queue panel reordered by keyboard, an item removed, one played, Clear;
// Next / Previous / Repeat / Shuffle in the player bar; and a free listener's third skip
// within the hour refused with the toast while the track stays. The fixture artist uploads
// four long tones through the API first (long, so no track ends on its own mid-journey) and
// deletes them at the end.
import type { Page } from '@playwright/test';
import { E2E_ARTIST, expect, expectToast, LISTENER_STATE, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: LISTENER_STATE });

const run = Date.now().toString(36);
const titles = ['One', 'Two', 'Three', 'Four'].map((n) => `Queue ${run} ${n}`);
const [A, B, C, D] = titles as [string, string, string, string];
const songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  // Each upload is decoded to be measured, beside other work on a busy machine.
  test.setTimeout(180_000);
  // 3 minutes at 8 kHz: small to upload, long enough to never end mid-journey.
  songIds.push(...(await uploadArtistTones(playwright, baseURL, titles, 180)));
});

test.afterAll(async ({ playwright, baseURL }) => {
  await deleteArtistSongs(playwright, baseURL, songIds);
});

const card = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const bar = (page: Page) => page.getByRole('region', { name: 'Player' });
/** The player bar's Queue button, whose name carries the count ('Queue, 3 items'). */
const QUEUE_BUTTON = /^Queue(, \d+ items?)?$/;
const panel = (page: Page) => page.getByRole('complementary', { name: 'Queue' });
const queueTitles = (page: Page) => panel(page).getByTestId('queue-item-title');

async function playFromCard(page: Page, title: string) {
  await card(page, title)
    .getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect(bar(page).getByTestId('player-title')).toHaveText(title);
}

async function addToQueue(page: Page, ...queued: string[]) {
  for (const title of queued) {
    await card(page, title)
      .getByRole('button', { name: `Add ${title} to queue` })
      .click();
    await expectToast(page, 'Added to queue', title);
  }
}

async function openQueue(page: Page) {
  await bar(page).getByRole('button', { name: QUEUE_BUTTON }).click();
  await expect(panel(page)).toBeVisible();
}

test('play from a card; queue: add, badge, reorder by keyboard, remove, play, clear', async ({
  page,
}) => {
  await page.goto('/');
  // No item, no bar (spec §2).
  await expect(card(page, A)).toBeVisible();
  await expect(bar(page)).toHaveCount(0);

  await playFromCard(page, A);
  const player = bar(page);
  await expect(player.getByTestId('player-artist')).toHaveText(E2E_ARTIST.displayName);
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(player.getByTestId('player-elapsed')).not.toHaveText('0:00', { timeout: 10_000 });
  await expect(player.getByTestId('player-duration')).toHaveText('3:00');

  // The badge counts the queue, and the button's name says the count.
  const queueButton = player.getByRole('button', { name: QUEUE_BUTTON });
  await expect(player.getByTestId('queue-badge')).toHaveCount(0);
  await expect(queueButton).toHaveAccessibleName('Queue');
  await addToQueue(page, B, C, D);
  await expect(player.getByTestId('queue-badge')).toHaveText('3');
  await expect(queueButton).toHaveAccessibleName('Queue, 3 items');
  // Adding never interrupts what plays.
  await expect(player.getByTestId('player-title')).toHaveText(A);

  await openQueue(page);
  await expect(queueButton).toHaveAttribute('aria-expanded', 'true');
  await expect(panel(page).getByRole('heading', { name: 'Queue' })).toBeFocused();
  await expect(queueTitles(page)).toHaveText([B, C, D]);
  await expect(panel(page).getByText('3 track(s) in queue', { exact: true })).toBeVisible();

  // Keyboard reorder: focus B's handle, Space picks it up, ArrowDown moves it 25 px (past
  // C's centre), Space drops it.
  const handle = panel(page).getByRole('button', { name: `Reorder ${B}` });
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(`Picked up ${B} at position 1 of 3.`)).toBeAttached();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText(`${B} moved to position 2 of 3.`)).toBeAttached();
  await page.keyboard.press('Space');
  await expect(queueTitles(page)).toHaveText([C, B, D]);
  // Focus stays on the moved row's handle, ready for the next move.
  await expect(panel(page).getByRole('button', { name: `Reorder ${B}` })).toBeFocused();

  // Escape mid-move cancels the move and keeps the panel open.
  await page.keyboard.press('Space');
  await expect(page.getByText(`Picked up ${B} at position 2 of 3.`)).toBeAttached();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Escape');
  await expect(page.getByText(`Moving ${B} was cancelled.`)).toBeAttached();
  await expect(panel(page)).toBeVisible();
  await expect(queueTitles(page)).toHaveText([C, B, D]);

  // Remove one.
  await panel(page)
    .getByRole('button', { name: `Remove ${C} from queue` })
    .click();
  await expect(queueTitles(page)).toHaveText([B, D]);
  await expect(panel(page).getByText('2 track(s) in queue', { exact: true })).toBeVisible();
  await expect(player.getByTestId('queue-badge')).toHaveText('2');

  // Click to play: D plays now and leaves the queue; A went to history.
  await panel(page)
    .getByRole('button', { name: `Play ${D} by ${E2E_ARTIST.displayName}` })
    .click();
  await expect(player.getByTestId('player-title')).toHaveText(D);
  await expect(queueTitles(page)).toHaveText([B]);
  await expect(panel(page).getByText('1 track(s) in queue', { exact: true })).toBeVisible();

  // Clear: the empty state, no footer, no badge; the playing item stays.
  await panel(page).getByRole('button', { name: 'Clear' }).click();
  await expect(panel(page).getByText('Queue is empty')).toBeVisible();
  await expect(panel(page).getByText('Add songs or episodes to see them here')).toBeVisible();
  await expect(panel(page).getByText(/track\(s\) in queue/)).toHaveCount(0);
  await expect(panel(page).getByRole('button', { name: 'Clear' })).toBeDisabled();
  await expect(player.getByTestId('queue-badge')).toHaveCount(0);
  await expect(player.getByTestId('player-title')).toHaveText(D);

  // Close puts focus back on the Queue button; Escape closes it too.
  await panel(page).getByRole('button', { name: 'Close queue' }).click();
  await expect(panel(page)).toHaveCount(0);
  await expect(queueButton).toBeFocused();
  await expect(queueButton).toHaveAttribute('aria-expanded', 'false');
  await queueButton.click();
  await expect(panel(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel(page)).toHaveCount(0);
});

test('next, previous, repeat (off → all → one → off) and shuffle on and off', async ({ page }) => {
  await page.goto('/');
  await playFromCard(page, A);
  const player = bar(page);
  const next = player.getByRole('button', { name: 'Next', exact: true });
  const previous = player.getByRole('button', { name: 'Previous', exact: true });
  const repeat = player.getByRole('button', { name: 'Repeat', exact: true });
  const shuffle = player.getByRole('button', { name: 'Shuffle', exact: true });

  // Empty queue, repeat off: no Next. No history and at the start: no Previous.
  await player.getByRole('button', { name: 'Pause' }).click();
  await player.getByRole('slider', { name: 'Seek' }).fill('0');
  await expect(next).toBeDisabled();
  await expect(previous).toBeDisabled();

  // Repeat cycles off → all → one → off; its name stays 'Repeat', the mode is its description.
  await expect(repeat).toHaveAttribute('aria-pressed', 'false');
  await expect(repeat).toHaveAccessibleDescription('Repeat is off');
  await repeat.click();
  await expect(repeat).toHaveAttribute('aria-pressed', 'true');
  await expect(repeat).toHaveAccessibleDescription('Repeating the queue');
  // Repeat all makes Next possible even with an empty queue (spec §2).
  await expect(next).toBeEnabled();
  await repeat.click();
  await expect(repeat).toHaveAccessibleDescription('Repeating this track');
  await expect(repeat).toHaveAttribute('aria-pressed', 'true');
  await expect(next).toBeDisabled();
  await repeat.click();
  await expect(repeat).toHaveAccessibleDescription('Repeat is off');
  await expect(repeat).toHaveAttribute('aria-pressed', 'false');

  // Shuffle on keeps the same tracks; off restores the order they were added in.
  await addToQueue(page, B, C, D);
  await openQueue(page);
  await expect(shuffle).toHaveAttribute('aria-pressed', 'false');
  await shuffle.click();
  await expect(shuffle).toHaveAttribute('aria-pressed', 'true');
  await expect(queueTitles(page)).toHaveCount(3);
  expect([...(await queueTitles(page).allTextContents())].sort()).toEqual([B, C, D].sort());
  await shuffle.click();
  await expect(shuffle).toHaveAttribute('aria-pressed', 'false');
  await expect(queueTitles(page)).toHaveText([B, C, D]);

  // Next plays the queue's first; A goes to history.
  await expect(next).toBeEnabled();
  await next.click();
  await expect(player.getByTestId('player-title')).toHaveText(B);
  await expect(queueTitles(page)).toHaveText([C, D]);
  await expect(previous).toBeEnabled();

  // Previous within 3 s: back to A, and B returns to the queue's front.
  await previous.click();
  await expect(player.getByTestId('player-title')).toHaveText(A);
  await expect(queueTitles(page)).toHaveText([B, C, D]);
});

test("a free listener's third skip within the hour is refused with the toast", async ({ page }) => {
  // The page's clock runs as usual but can be moved on: the skip counter's reset is checked
  // every 60 s and happens once an hour has passed since the last one (spec §4, §9).
  await page.clock.install();
  await page.goto('/');
  await playFromCard(page, A);
  await addToQueue(page, B, C, D);
  const player = bar(page);
  const next = player.getByRole('button', { name: 'Next', exact: true });

  await next.click();
  await expect(player.getByTestId('player-title')).toHaveText(B);
  await next.click();
  await expect(player.getByTestId('player-title')).toHaveText(C);
  await next.click();
  await expectToast(
    page,
    'Skip limit reached',
    'Free users can skip 2 times per hour. Upgrade to Premium for unlimited skips!',
  );
  // Nothing moved: C still plays and D still waits.
  await expect(player.getByTestId('player-title')).toHaveText(C);
  await expect(player.getByTestId('queue-badge')).toHaveText('1');
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();

  // A minute on, the counter's check runs and finds less than an hour: still refused.
  await page.clock.fastForward(61_000);
  await next.click();
  await expect(player.getByTestId('player-title')).toHaveText(C);
  await expect(player.getByTestId('queue-badge')).toHaveText('1');

  // An hour after the counter started, it resets: the skip goes through.
  await page.clock.fastForward(60 * 60_000);
  await next.click();
  await expect(player.getByTestId('player-title')).toHaveText(D);
});

test('pointer drag reorders; the menu switches loudness normalization; no serious axe findings', async ({
  browser,
  baseURL,
}) => {
  // @axe-core/playwright needs a page from browser.newContext().
  const context = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const page = await context.newPage();
  await page.goto('/');
  await playFromCard(page, A);
  await addToQueue(page, B, C, D);
  await openQueue(page);

  // Drag D's handle by pointer above B: D first.
  const from = await panel(page)
    .getByRole('button', { name: `Reorder ${D}` })
    .boundingBox();
  const to = await panel(page)
    .getByRole('button', { name: `Reorder ${B}` })
    .boundingBox();
  if (!from || !to) throw new Error('queue handles are not laid out');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, to.y + 2, { steps: 12 });
  await page.mouse.up();
  await expect(queueTitles(page)).toHaveText([D, B, C]);

  expect(
    await seriousAxeViolations(page, '[data-player-bar]', '[data-testid="queue-panel"]'),
  ).toEqual([]);

  // The player's menu: Quality as before, and a switch that stays open when flipped.
  await bar(page).getByRole('button', { name: 'Quality', exact: true }).click();
  const loudness = page.getByRole('menuitemcheckbox', { name: 'Loudness normalization' });
  await expect(loudness).toHaveAttribute('aria-checked', 'true');
  await loudness.click();
  await expect(loudness).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  // Kept on this device.
  await page.reload();
  await playFromCard(page, A);
  await bar(page).getByRole('button', { name: 'Quality', exact: true }).click();
  await expect(loudness).toHaveAttribute('aria-checked', 'false');
  await loudness.press('Enter');
  await expect(loudness).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  if (process.env.E2E_SCREENSHOTS) {
    await openQueue(page);
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/desktop.png` });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/phone-panel.png` });
    await panel(page).getByRole('button', { name: 'Close queue' }).click();
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/phone.png` });
  }
  await context.close();
});
