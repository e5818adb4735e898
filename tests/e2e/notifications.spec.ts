// Live notifications (docs/decisions/0021): the fixture artist's bell updates live, without a
// reload, when the shared listener follows them (PUT /api/follows/<artistId> from the listener's
// own browser context): the badge rises and the popup shows the notice; then the artist reads it on
// /notifications and marks all read. And a bell whose connection dropped catches up on what came
// meanwhile once it is back.
import type { Browser, Page, WebSocketRoute } from '@playwright/test';
import {
  ARTIST_STATE,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  sharedListener,
  test,
} from './support.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: ARTIST_STATE });

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const LIVE = /\/api\/me\/notifications\/live$/;

async function unreadOf(page: Page): Promise<number> {
  const res = await page.request.get('/api/me/notifications');
  expect(res.ok()).toBe(true);
  return (await res.json()).unread_count as number;
}

/** The shared listener follows the artist afresh (a first follow notifies; a repeat does not). */
async function listenerFollows(browser: Browser, artistId: string) {
  const listener = await browser.newContext({ storageState: LISTENER_STATE });
  try {
    await listener.request.delete(`/api/follows/${artistId}`);
    const res = await listener.request.put(`/api/follows/${artistId}`);
    expect(res.ok(), await res.text()).toBe(true);
  } finally {
    await listener.close();
  }
}

let artistId: string;

test.beforeAll(async ({ playwright, baseURL }) => {
  requireArtistSession();
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  artistId = (await (await api.get('/api/auth/session')).json()).user.id;
  await api.dispose();
});

// The shared listener is left as it was found: other journeys follow the artist themselves.
test.afterAll(async ({ browser }) => {
  const listener = await browser.newContext({ storageState: LISTENER_STATE });
  await listener.request.delete(`/api/follows/${artistId}`);
  await listener.close();
});

test('a follow reaches the artist live: badge, popup, menu; then mark all read', async ({
  page,
  browser,
}) => {
  const listenerName = sharedListener().displayName;
  await page.goto('/');
  const before = await unreadOf(page);
  await expect(bell(page)).toHaveAccessibleName(
    before > 0 ? `Notifications, ${before} unread` : 'Notifications',
  );
  // The server registers a socket before the browser sees it open.
  await expect(bell(page)).toHaveAttribute('data-live', 'open');

  await listenerFollows(browser, artistId);

  // No reload: the badge rises and the popup says who followed.
  await expect(bell(page)).toHaveAccessibleName(`Notifications, ${before + 1} unread`);
  await expect(page.getByTestId('notification-badge')).toHaveText(
    before + 1 > 9 ? '9+' : String(before + 1),
  );
  await expectToast(page, 'New follower', `${listenerName} started following you`);

  await bell(page).click();
  const first = page.getByTestId('notification-menu-item').first();
  await expect(first).toContainText('New follower');
  await expect(first).toContainText(`${listenerName} started following you`);
  await expect(first).toContainText(/less than a minute ago|1 minute ago/);
  await page.getByRole('menuitem', { name: 'View all notifications' }).click();

  await expect(page).toHaveURL(/\/notifications$/);
  const item = page.getByTestId('notification-item').first();
  await expect(item).toContainText('New follower');
  await expect(item.getByText('New', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: `Unread (${before + 1})` })).toBeVisible();
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toContainText(
    `${before + 1} unread`,
  );

  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expectToast(page, 'All notifications marked as read');
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(page.getByTestId('notification-badge')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await expect(item.getByText('New', { exact: true })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Unread (0)' }).click();
  await expect(page.getByText("You're all caught up!")).toBeVisible();

  // Clicking one opens its link: the follower's profile.
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByTestId('notification-item').first().getByRole('button').first().click();
  await expect(page).toHaveURL(/\/profile\/[0-9a-f-]{36}$/);
});

test('a bell that lost its connection catches up once it is back', async ({ page, browser }) => {
  // Every live socket of this page goes through here: while `up` is false the "network" is
  // down (sockets are cut and new ones refused); then the page reconnects on its own.
  let up = true;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(LIVE, (ws) => {
    if (!up) return void ws.close({ code: 4000, reason: 'offline' });
    ws.connectToServer();
    open.push(ws);
  });

  await page.goto('/notifications');
  await expect.poll(() => open.length).toBeGreaterThan(0);
  const before = await unreadOf(page);

  up = false;
  for (const ws of open.splice(0)) await ws.close({ code: 4000, reason: 'offline' });
  await expect(bell(page)).not.toHaveAttribute('data-live', 'open');
  // Said while the page had no socket: only a catch-up can bring it.
  await listenerFollows(browser, artistId);

  up = true;
  // Back online (the browser says so): the page reconnects at once and refetches.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(bell(page)).toHaveAccessibleName(`Notifications, ${before + 1} unread`);
  await expect(page.getByTestId('notification-item').first()).toContainText('New follower');

  // Tidy: read again for the next run.
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expectToast(page, 'All notifications marked as read');
});
