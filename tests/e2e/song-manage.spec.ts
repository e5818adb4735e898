// An artist manages their own song from its card: rename it through the Edit dialog, then
// delete it after a confirm. The shared listener never sees the menu. The song is uploaded
// straight to the API with the fixture artist's cookies and removed at the end either way.
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
const original = `Manage ${run} draft`;
const renamed = `Manage ${run} final`;
let songId: string | null = null;

// Home lists a new song under both Recent and Popular Tracks: use the Recent one.
const recentCard = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const menuButton = (page: Page, title: string) =>
  recentCard(page, title).getByRole('button', { name: `More actions for ${title}` });

test.afterAll(async ({ playwright, baseURL }) => {
  if (!songId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/songs/${songId}`); // 404 once the journey deleted it
  await api.dispose();
});

test('an artist renames and deletes their own song; a listener gets no menu', async ({
  page,
  playwright,
  browser,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const res = await api.post('/api/songs', {
    multipart: {
      title: original,
      genre: 'Rock',
      file: { name: 'manage.wav', mimeType: 'audio/wav', buffer: sineWav({ seconds: 2 }) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  songId = ((await res.json()) as { id: string }).id;
  await api.dispose();

  await page.goto('/');
  await expect(recentCard(page, original)).toBeVisible();
  await menuButton(page, original).click();
  await page.getByRole('menuitem', { name: 'Edit song' }).click();

  const edit = page.getByRole('dialog', { name: 'Edit song' });
  await expect(edit.getByLabel('Title')).toHaveValue(original);
  await expect(edit.getByLabel('Genre')).toHaveValue('Rock');
  await expect(edit.getByLabel('Cover art (optional)')).toBeVisible();

  // The client check comes first, with the spec message.
  await edit.getByLabel('Title').fill('   ');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Error', 'Title is required');
  await expect(edit).toBeVisible();

  await edit.getByLabel('Title').fill(renamed);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Song updated successfully');
  await expect(edit).toBeHidden();
  await expect(recentCard(page, renamed)).toBeVisible();
  await expect(recentCard(page, original)).toHaveCount(0);
  // Focus goes back to the card's menu button.
  await expect(menuButton(page, renamed)).toBeFocused();

  // The shared listener sees the renamed song without the owner's menu.
  const listener = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const listenerPage = await listener.newPage();
  await listenerPage.goto('/');
  await expect(recentCard(listenerPage, renamed)).toBeVisible();
  await expect(listenerPage.getByRole('button', { name: /^More actions for / })).toHaveCount(0);
  await listener.close();

  // Delete by keyboard: the menu opens from the button and the items are reachable.
  await menuButton(page, renamed).press('Enter');
  await page.getByRole('menuitem', { name: 'Delete song' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete "${renamed}"?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(recentCard(page, renamed)).toBeVisible();

  // On the artist's profile (reached in the app, no reload) an edit and a delete show at once:
  // its songs and their count are refreshed, not left stale until a reload.
  await recentCard(page, renamed).getByRole('link').first().click();
  const uploaded = page.getByRole('region', { name: /^Uploaded Songs \(\d+\)$/ });
  const profileCard = (title: string) =>
    uploaded
      .getByTestId('song-card')
      .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await expect(profileCard(renamed)).toBeVisible();
  const heading = await uploaded.getByRole('heading', { level: 3 }).first().textContent();
  const count = Number(/\((\d+)\)/.exec(heading ?? '')![1]);
  const onProfile = `Manage ${run} on profile`;
  await profileCard(renamed)
    .getByRole('button', { name: `More actions for ${renamed}` })
    .click();
  await page.getByRole('menuitem', { name: 'Edit song' }).click();
  await edit.getByLabel('Title').fill(onProfile);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Song updated successfully');
  await expect(profileCard(onProfile)).toBeVisible();
  await expect(profileCard(renamed)).toHaveCount(0);

  await profileCard(onProfile)
    .getByRole('button', { name: `More actions for ${onProfile}` })
    .click();
  await page.getByRole('menuitem', { name: 'Delete song' }).click();
  await page
    .getByRole('dialog', { name: `Delete "${onProfile}"?` })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expectToast(page, 'Song deleted');
  await expect(profileCard(onProfile)).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Uploaded Songs (${count - 1})` })).toBeVisible();
});
