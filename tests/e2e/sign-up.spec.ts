import {
  test,
  expect,
  expectToast,
  fillSignUp,
  openAuth,
  PASSWORD,
  uniqueEmail,
} from './support.ts';

// Spec §5: the first failing message, in a toast titled 'Validation Error'.
const signUpCases: Array<{
  name: string;
  values: Parameters<typeof fillSignUp>[1];
  message: string;
}> = [
  {
    name: 'invalid email',
    values: { displayName: 'Valid Name', email: 'not-an-email', password: PASSWORD },
    message: 'Invalid email address',
  },
  {
    name: 'short password',
    values: { displayName: 'Valid Name', email: 'short@canto.test', password: '12345' },
    message: 'Password must be at least 6 characters',
  },
  {
    name: 'long password',
    values: { displayName: 'Valid Name', email: 'long@canto.test', password: 'x'.repeat(73) },
    message: 'Password must be less than 72 characters',
  },
  {
    name: 'short display name (trimmed)',
    values: { displayName: '  a  ', email: 'name@canto.test', password: PASSWORD },
    message: 'Display name must be at least 2 characters',
  },
  {
    name: 'long display name',
    values: { displayName: 'n'.repeat(51), email: 'name@canto.test', password: PASSWORD },
    message: 'Display name must be less than 50 characters',
  },
  {
    name: 'email comes first',
    values: { displayName: 'a', email: 'nope', password: '1' },
    message: 'Invalid email address',
  },
];

test.describe('sign-up validation', () => {
  for (const c of signUpCases) {
    test(c.name, async ({ page }) => {
      await openAuth(page, 'Sign Up');
      await fillSignUp(page, c.values);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await expectToast(page, 'Validation Error', c.message);
      await expect(page).toHaveURL(/\/auth$/);
    });
  }
});

test.describe('sign-in validation', () => {
  test('invalid email', async ({ page }) => {
    await openAuth(page, 'Sign In');
    await page.getByLabel('Email').fill('nobody');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Validation Error', 'Invalid email address');
  });

  test('short password', async ({ page }) => {
    await openAuth(page, 'Sign In');
    await page.getByLabel('Email').fill('someone@canto.test');
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Validation Error', 'Password must be at least 6 characters');
  });

  test.describe(() => {
    test.use({ allowedConsoleErrors: [/status of 40[01]/] });
    test("wrong credentials show the server's message in an 'Error' toast", async ({ page }) => {
      await openAuth(page, 'Sign In');
      await page.getByLabel('Email').fill(uniqueEmail('nobody'));
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expectToast(page, 'Error');
      await expect(page).toHaveURL(/\/auth$/);
    });
  });
});

test('the sign-up form has labelled fields, the artist box and its note', async ({ page }) => {
  await openAuth(page, 'Sign Up');
  await expect(page.getByLabel('Display name')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(
    page.getByRole('checkbox', { name: 'Request artist status (upload music & podcasts)' }),
  ).not.toBeChecked();
  await expect(page.getByText('admin approval', { exact: false })).toBeVisible();
});

// The successful sign-up journey (lands on / with 'Account created successfully!') runs in
// global.setup.ts, where it creates the shared listener.
