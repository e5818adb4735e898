import { describe, expect, it } from 'vitest';
import { isUuid, UUID_PATTERN } from './uuid.ts';

const id = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('isUuid', () => {
  it('takes a UUID in either case by default, as PostgreSQL reads one', () => {
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(true);
  });

  it('takes only the lower-case form when asked', () => {
    expect(isUuid(id, 'lower-case')).toBe(true);
    expect(isUuid(id.toUpperCase(), 'lower-case')).toBe(false);
  });

  it.each([
    ['an external track id', 'itunes:12345'],
    ['a UUID with something after it', `${id}x`],
    ['a UUID with something before it', ` ${id}`],
    ['a digit short', id.slice(1)],
    ['hyphens in the wrong places', '0f8fad5bd-9cb-469f-a165-70867728950e'],
    ['a non-hex digit', id.replace('0f', 'g0')],
    ['nothing', ''],
  ])('refuses %s', (_, value) => {
    expect(isUuid(value)).toBe(false);
  });

  it('embeds without anchors', () => {
    expect(new RegExp(`^${UUID_PATTERN}\\.png$`).test(`${id}.png`)).toBe(true);
  });
});
