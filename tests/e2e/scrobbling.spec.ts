// Scrobbling as a listener sets it up (docs/decisions/0038): under their settings they connect
// ListenBrainz with a user token (a wrong one is refused, the right one shows the account as
// Connected) and Last.fm by allowing Canto on Last.fm's page and coming back; both against the
// local fakes serve.ts starts (scrobbling-fakes.ts).
import { seriousAxeViolations } from './axe.ts';
import { E2E_LISTENBRAINZ_TOKEN, E2E_LISTENBRAINZ_USER } from './scrobbling-fakes.ts';
import { test, expect, uniqueEmail, PASSWORD, ownAddress } from './support.ts';

// The wrong token's answer (400) is logged by the browser.
test.use({ allowedConsoleErrors: [/status of 400/] });

test('a listener connects ListenBrainz with their token and Last.fm by allowing access', async ({
  page,
}) => {
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: {
      email: uniqueEmail('scrobbler'),
      password: PASSWORD,
      display_name: 'Scrobbling Listener',
      is_artist: false,
    },
  });
  expect(up.status(), await up.text()).toBe(201);

  // Found from the account menu, where a listener's settings are.
  await page.goto('/');
  await page.getByRole('button', { name: /account/i }).click();
  await page.getByRole('menuitem', { name: 'Scrobbling' }).click();
  await expect(page).toHaveURL(/\/settings\/scrobbling$/);
  await expect(page.getByRole('heading', { name: 'Scrobbling', level: 1 })).toBeVisible();

  const token = page.getByLabel('ListenBrainz user token');
  await token.fill('not-my-token');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid ListenBrainz token' }),
  ).toBeVisible();

  await token.fill(E2E_LISTENBRAINZ_TOKEN);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const listenBrainz = page.getByTestId('scrobbling-listenbrainz');
  await expect(listenBrainz.getByText('Connected', { exact: true })).toBeVisible();
  await expect(listenBrainz.getByText(E2E_LISTENBRAINZ_USER)).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Last.fm opens in a new tab; the fake's page allows access as "fake-user".
  const [lastfmTab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: 'Connect Last.fm' }).click(),
  ]);
  await expect(lastfmTab.getByText('Application authorised')).toBeVisible();
  await lastfmTab.close();
  await page.getByRole('button', { name: "I've allowed access" }).click();
  const lastfm = page.getByTestId('scrobbling-lastfm');
  await expect(lastfm.getByText('Connected', { exact: true })).toBeVisible();
  await expect(lastfm.getByText('fake-user')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Kept across a reload; disconnecting ListenBrainz brings its token field back.
  await page.reload();
  await expect(listenBrainz.getByText('Connected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Disconnect ListenBrainz' }).click();
  await expect(page.getByLabel('ListenBrainz user token')).toBeVisible();
  await expect(lastfm.getByText('Connected', { exact: true })).toBeVisible();
});
