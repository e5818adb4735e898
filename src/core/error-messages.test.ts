import { describe, expect, it } from 'vitest';
import { toUserMessage, userMessages } from './error-messages.ts';

describe('toUserMessage (spec §8 shared mapper)', () => {
  it.each([
    ['auth', 'Auth session missing', userMessages.auth],
    ['jwt', 'JWT expired', userMessages.auth],
    ['artist', 'Only an artist may do that', userMessages.permission],
    ['permission', 'Permission missing', userMessages.permission],
    ['denied', 'Access denied', userMessages.permission],
    ['role', 'Role required', userMessages.permission],
    ['storage', 'Storage quota exceeded', userMessages.storage],
    ['upload', 'Upload aborted', userMessages.storage],
    ['bucket', 'Bucket not found', userMessages.storage],
    ['invalid', 'Invalid input syntax', userMessages.validation],
    ['validation', 'Validation error', userMessages.validation],
    ['unique', 'violates unique constraint', userMessages.duplicate],
    ['duplicate', 'duplicate key value', userMessages.duplicate],
    ['network', 'Network is down', userMessages.network],
    ['fetch', 'Failed to fetch', userMessages.network],
  ])('maps a message containing "%s"', (_word, message, expected) => {
    expect(toUserMessage(new Error(message))).toBe(expected);
  });

  it('gives the fallback for anything else', () => {
    expect(toUserMessage(new Error('Something odd'))).toBe(
      'Operation failed. Please try again or contact support if the issue persists.',
    );
    expect(toUserMessage(undefined)).toBe(userMessages.fallback);
  });

  it('applies the rules in the spec order (auth before permission)', () => {
    expect(toUserMessage(new Error('jwt role claim missing'))).toBe(userMessages.auth);
    expect(toUserMessage(new Error('upload denied'))).toBe(userMessages.permission);
  });

  it('matches case-insensitively and reads error codes and plain strings', () => {
    expect(toUserMessage('NETWORK unreachable')).toBe(userMessages.network);
    expect(toUserMessage({ code: 'duplicate', message: 'x' })).toBe(userMessages.duplicate);
  });

  it('keeps the exact spec texts', () => {
    expect(userMessages).toEqual({
      auth: 'Please log in to continue.',
      permission:
        'You do not have permission to perform this action. Please verify your account status.',
      storage: 'File upload failed. Please check the file format and size.',
      validation: 'Please check your input and try again.',
      duplicate: 'This item already exists.',
      network: 'Network error. Please check your connection and try again.',
      fallback: 'Operation failed. Please try again or contact support if the issue persists.',
    });
  });
});
