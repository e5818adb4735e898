import { expect, sharedListener, signIn, test } from './support.ts';

// Tabs share the refresh cookie and the server revokes a session whose refresh token is
// used twice, so two tabs refreshing at once must not sign the user out.
test('two tabs refreshing an expired access token at once both stay signed in', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  const listener = sharedListener();
  await signIn(first, listener.email, listener.password);
  await expect(first).toHaveURL(/\/$/);

  for (let round = 0; round < 3; round++) {
    // The access cookie is gone (as when it expires); only the refresh cookie remains.
    await context.clearCookies({ name: 'canto_access' });
    const second = await context.newPage();
    await Promise.all([first.goto('/'), second.goto('/')]);
    for (const page of [first, second]) {
      await expect(page.getByRole('navigation', { name: 'Sidebar' })).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
    }
    await second.close();
  }

  // The session is still alive afterwards: a reload needs no sign-in.
  await first.reload();
  await expect(first.getByRole('navigation', { name: 'Sidebar' })).toBeVisible();
  await context.close();
});
