import {
  test,
  expect,
  LISTENER_STATE,
  ownAddress,
  PASSWORD,
  signIn,
  signOut,
  uniqueEmail,
} from './support.ts';

test('a brand-new account is welcomed, and welcomed back only when it returns', async ({
  page,
}) => {
  const email = uniqueEmail('welcome');
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: { email, password: PASSWORD, display_name: 'First Timer', is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByText('Welcome to Canto, First Timer')).toBeVisible();
  await expect(page.getByText(/Welcome back/)).toHaveCount(0);

  await signOut(page);
  await signIn(page, email);
  await expect(page.getByText('Welcome back, First Timer')).toBeVisible();
});

test.describe('security settings', () => {
  test.use({ storageState: LISTENER_STATE });

  test('are reachable from the user menu in the top bar', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('are reachable from the own profile', async ({ page }) => {
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Security' }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await expect(page.getByText('Security methods').first()).toBeVisible();
  });
});
