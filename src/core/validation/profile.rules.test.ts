import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  followerCountLabel,
  newFollowerMessage,
  profileBio,
  profileDisplayName,
  profileName,
  storedProfileText,
} from './profile.rules.ts';

// The shape of the contract's PATCH body (core may not import contracts).
const updateProfileBody = z.strictObject({
  display_name: profileDisplayName().nullable().optional(),
  bio: profileBio().nullable().optional(),
});

describe('profile rules (spec §2, §5)', () => {
  it("says 'follower' for exactly one", () => {
    expect(followerCountLabel(0)).toBe('0 followers');
    expect(followerCountLabel(1)).toBe('1 follower');
    expect(followerCountLabel(2)).toBe('2 followers');
  });

  it("shows 'Anonymous User' without a name", () => {
    expect(profileName(null)).toBe('Anonymous User');
    expect(profileName('  ')).toBe('Anonymous User');
    expect(profileName('Ada')).toBe('Ada');
    expect(newFollowerMessage(null)).toBe('Anonymous User started following you');
  });

  it('trims, keeps inner line breaks, and stores blank as null', () => {
    const parsed = updateProfileBody.parse({ display_name: '  Ada  ', bio: ' a\nb ' });
    expect(parsed).toEqual({ display_name: 'Ada', bio: 'a\nb' });
    expect(storedProfileText(updateProfileBody.parse({ bio: '   ' }).bio!)).toBeNull();
    expect(storedProfileText('\u200B\u2800')).toBeNull();
    expect(storedProfileText(null)).toBeNull();
    expect(storedProfileText('x')).toBe('x');
  });

  it('refuses over 50 and 500 characters with the messages, and unknown keys', () => {
    const first = (v: unknown) => updateProfileBody.safeParse(v).error?.issues[0]?.message;
    expect(first({ display_name: 'n'.repeat(51) })).toBe(
      'Display name must be less than 50 characters',
    );
    expect(first({ bio: 'b'.repeat(501) })).toBe('Bio must be less than 500 characters');
    // Trimmed first: 50 characters with spaces around pass.
    expect(first({ display_name: ` ${'n'.repeat(50)} ` })).toBeUndefined();
    expect(updateProfileBody.safeParse({ avatar_url: 'x' }).success).toBe(false);
  });
});
