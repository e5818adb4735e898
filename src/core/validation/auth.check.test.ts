import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailPattern, signInProblem, signUpProblem } from './auth.check.ts';
import { firstError, signInRules, signUpRules } from './auth.rules.ts';

// Characters that matter to the rules: the email pattern's own, case (incl. the Kelvin sign,
// which lower-cases to an ASCII k), whitespace trim() removes, and non-ASCII / astral ones.
const tricky = [
  'a',
  'Z',
  'k',
  '\u212A',
  '0',
  '.',
  '..',
  '@',
  '-',
  '_',
  "'",
  '+',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u2028',
  '\ufeff',
  'é',
  'İ',
  'ß',
  '😀',
  '#',
  '"',
  ',',
  'com',
  'example',
  'x.y',
  // NUL, direction controls and characters that show nothing (text.check.ts).
  '\u0000',
  '\u202E',
  '\u2066',
  '\u200F',
  '\u200B',
  '\u200D',
  '\u3164',
  '\u00AD',
];
const trickyString = (max: number) =>
  fc.array(fc.constantFrom(...tricky), { maxLength: max }).map((parts) => parts.join(''));
const anyText = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: max }),
    fc.string({ unit: 'grapheme', maxLength: max }),
    fc.string({ unit: 'binary', maxLength: max }),
    trickyString(max),
  );
const padded = (inner: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.constantFrom('', ' ', '  ', '\t', '\u00a0'),
      inner,
      fc.constantFrom('', ' ', '\n', '\u3000'),
    )
    .map(([a, b, c]) => a + b + c);

const email = fc.oneof(
  padded(fc.emailAddress()),
  padded(fc.emailAddress().map((e) => e.toUpperCase())),
  anyText(40),
);
// Around the limits: 0–8 (min 6) and 68–76 (max 72), astral characters count as two units.
const password = fc.oneof(
  anyText(10),
  fc.string({ minLength: 66, maxLength: 78 }),
  fc.string({ unit: 'grapheme', minLength: 30, maxLength: 40 }),
);
const displayName = fc.oneof(
  padded(anyText(6)),
  padded(fc.string({ minLength: 46, maxLength: 54 })),
  anyText(60),
);

const RUNS = { numRuns: 5000 };

describe('auth.check agrees with the zod rules (same first message or both valid)', () => {
  it('uses zod’s own email pattern', () => {
    expect(emailPattern.source).toBe(z.regexes.email.source);
    expect(emailPattern.flags).toBe(z.regexes.email.flags);
  });

  it('sign-in', () => {
    fc.assert(
      fc.property(email, password, (e, p) => {
        const form = { email: e, password: p };
        expect(signInProblem(form)).toBe(firstError(signInRules, form));
      }),
      RUNS,
    );
  });

  it('sign-up', () => {
    fc.assert(
      fc.property(email, password, displayName, fc.boolean(), (e, p, d, artist) => {
        const form = { email: e, password: p, display_name: d, is_artist: artist };
        expect(signUpProblem(form)).toBe(firstError(signUpRules, form));
      }),
      RUNS,
    );
  });

  it('hits every message and the valid case', () => {
    const ok = { email: ' Fan@Example.COM ', password: 'secret1', display_name: ' Fan ' };
    const cases = [
      ok,
      { ...ok, email: 'nope' },
      { ...ok, email: '\u212A@example.com' },
      { ...ok, password: '12345' },
      { ...ok, password: 'x'.repeat(73) },
      { ...ok, password: '😀😀😀' }, // six UTF-16 units, three characters: too short
      { ...ok, password: '😀'.repeat(72) },
      { ...ok, password: 'a\ud800'.repeat(3) }, // lone surrogates count one each
      { ...ok, display_name: ' a ' },
      { ...ok, display_name: 'x'.repeat(51) },
      { ...ok, display_name: 'a\u0000b' },
      { ...ok, display_name: '\u200B\u200B\u200B' }, // nothing shows: too short
      { ...ok, display_name: '\u202Ea\u202C' }, // one character once the controls go
      { ...ok, display_name: '\u202E' + 'x'.repeat(50) }, // 50 once the control goes
    ];
    const messages = cases.map((c) => signUpProblem(c));
    expect(messages).toEqual(cases.map((c) => firstError(signUpRules, c)));
    expect(messages.slice(-4)).toEqual([
      'Text must not contain NUL characters',
      'Display name must be at least 2 characters',
      'Display name must be at least 2 characters',
      null,
    ]);
    expect(new Set(messages).size).toBe(7);
    expect(signUpProblem({ ...ok, password: '😀'.repeat(72) })).toBeNull();
  });
});
