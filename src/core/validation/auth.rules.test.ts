import { describe, expect, it } from 'vitest';
import { firstError, signInRules, signUpRules } from './auth.rules.ts';

const ok = { email: 'fan@example.com', password: 'secret1', display_name: 'Fan' };

describe('sign-up rules (spec §5)', () => {
  it('accepts a valid form and normalises email and display name', () => {
    const r = signUpRules.parse({ ...ok, email: '  Fan@Example.COM ', display_name: '  Fan  ' });
    expect(r).toEqual({
      email: 'fan@example.com',
      password: 'secret1',
      display_name: 'Fan',
      is_artist: false,
    });
  });

  it.each([
    [{ email: 'nope' }, 'Invalid email address'],
    [{ email: '' }, 'Invalid email address'],
    [{ password: '12345' }, 'Password must be at least 6 characters'],
    [{ password: 'x'.repeat(73) }, 'Password must be less than 72 characters'],
    [{ display_name: ' a ' }, 'Display name must be at least 2 characters'],
    [{ display_name: 'x'.repeat(51) }, 'Display name must be less than 50 characters'],
  ])('%o gives %s', (patch, message) => {
    expect(firstError(signUpRules, { ...ok, ...patch })).toBe(message);
  });

  it('accepts the boundaries 6 and 72, 2 and 50', () => {
    expect(
      firstError(signUpRules, { ...ok, password: 'x'.repeat(6), display_name: 'ab' }),
    ).toBeNull();
    expect(
      firstError(signUpRules, { ...ok, password: 'x'.repeat(72), display_name: 'y'.repeat(50) }),
    ).toBeNull();
  });

  it('reports the first failure in the order email, password, display name', () => {
    const all = { email: 'bad', password: '1', display_name: 'a' };
    expect(firstError(signUpRules, all)).toBe('Invalid email address');
    expect(firstError(signUpRules, { ...all, email: ok.email })).toBe(
      'Password must be at least 6 characters',
    );
    expect(firstError(signUpRules, { ...all, email: ok.email, password: ok.password })).toBe(
      'Display name must be at least 2 characters',
    );
  });
});

describe('sign-in rules (spec §5)', () => {
  it('checks email then password, with no maximum length', () => {
    expect(firstError(signInRules, { email: 'x', password: '1' })).toBe('Invalid email address');
    expect(firstError(signInRules, { email: ok.email, password: '1' })).toBe(
      'Password must be at least 6 characters',
    );
    expect(firstError(signInRules, { email: ok.email, password: 'x'.repeat(100) })).toBeNull();
  });
});
