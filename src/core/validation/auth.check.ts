// The sign-in and sign-up rules without zod: the /auth page checks its form with these so the
// first screen a visitor loads ships no schema library. auth.rules.ts builds the server's zod
// schemas from the same limits and messages, and auth.check.test.ts proves both agree.

import { cleanLine, hasNul, textMessages, visibleLength } from './text.check.ts';

// Spec §5 and §9: the exact messages; the first failing one is what the user sees.
export const authLimits = {
  passwordMin: 6,
  passwordMax: 72,
  displayNameMin: 2,
  displayNameMax: 50,
} as const;

export const authMessages = {
  email: 'Invalid email address',
  passwordMin: 'Password must be at least 6 characters',
  passwordMax: 'Password must be less than 72 characters',
  displayNameMin: 'Display name must be at least 2 characters',
  displayNameMax: 'Display name must be less than 50 characters',
} as const;

/** zod 4's `z.email()` pattern, verbatim (auth.check.test.ts compares it with zod's). */
export const emailPattern =
  // eslint-disable-next-line no-useless-escape -- kept character for character as zod spells it
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** Length in Unicode code points, as zod 4 measures strings (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

function emailProblem(email: string): string | null {
  // As the zod rule: trimmed and lower-cased before the pattern.
  return emailPattern.test(email.trim().toLowerCase()) ? null : authMessages.email;
}

function passwordProblem(password: string, withMax: boolean): string | null {
  const length = codePointLength(password);
  if (length < authLimits.passwordMin) return authMessages.passwordMin;
  if (withMax && length > authLimits.passwordMax) return authMessages.passwordMax;
  return null;
}

function displayNameProblem(displayName: string): string | null {
  // As the zod rule (text.rules.ts): NUL first, then the cleaned line's length, then what shows.
  if (hasNul(displayName)) return textMessages.nul;
  const name = cleanLine(displayName);
  const length = codePointLength(name);
  if (length < authLimits.displayNameMin) return authMessages.displayNameMin;
  if (length > authLimits.displayNameMax) return authMessages.displayNameMax;
  if (visibleLength(name) < authLimits.displayNameMin) return authMessages.displayNameMin;
  return null;
}

/** The first failing message of the sign-in form (email, then password); null when valid. */
export function signInProblem(form: { email: string; password: string }): string | null {
  return emailProblem(form.email) ?? passwordProblem(form.password, false);
}

/** The first failing message of the sign-up form (email, password, display name); null when valid. */
export function signUpProblem(form: {
  email: string;
  password: string;
  display_name: string;
}): string | null {
  return (
    emailProblem(form.email) ??
    passwordProblem(form.password, true) ??
    displayNameProblem(form.display_name)
  );
}

/** The forgot-password form: the email, as sign-in checks it; null when valid. */
export function recoverProblem(form: { email: string }): string | null {
  return emailProblem(form.email);
}

/** A new password (reset), checked as sign-up checks one; null when valid. */
export function newPasswordProblem(form: { password: string }): string | null {
  return passwordProblem(form.password, true);
}
