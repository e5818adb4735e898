import { describe, expect, it } from 'vitest';
import { userMessages } from '@/core/error-messages.ts';
import { ApiError, errorMessage } from './api-client.ts';

describe('errorMessage: the one way the web app words a failure', () => {
  it("gives a refusal in the server's own words", () => {
    expect(errorMessage(new ApiError(409, 'conflict', 'Already in playlist'), 'Failed')).toBe(
      'Already in playlist',
    );
    expect(errorMessage(new ApiError(0, 'network_error', userMessages.network), 'Failed')).toBe(
      userMessages.network,
    );
  });

  it('gives the fallback for a server failure, whose text helps nobody', () => {
    expect(
      errorMessage(new ApiError(500, 'internal_error', 'Internal server error'), 'Failed'),
    ).toBe('Failed');
    expect(errorMessage(new ApiError(502, 'http_error', 'Request failed (502)'), 'Failed')).toBe(
      'Failed',
    );
  });

  it("words it with spec §8's mapper when no fallback is given", () => {
    expect(errorMessage(new ApiError(500, 'internal_error', 'Internal server error'))).toBe(
      userMessages.fallback,
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(userMessages.network);
  });

  it('gives nothing but a refusal with a null fallback', () => {
    expect(errorMessage(new ApiError(500, 'internal_error', 'Internal server error'), null)).toBe(
      undefined,
    );
    expect(errorMessage(new ApiError(404, 'not_found', 'Profile not found'), null)).toBe(
      'Profile not found',
    );
  });
});
