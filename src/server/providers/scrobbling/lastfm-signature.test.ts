import { describe, expect, it } from 'vitest';
import { failureOfLastfmCode, lastfmSignature } from './lastfm.provider.ts';

describe("Last.fm's api_sig", () => {
  it('is the MD5 of the sorted name-value pairs and the secret, format left out', () => {
    // Expected value computed apart from this code: md5sum of the concatenated text.
    const params = { token: 'yyyyyyyy', method: 'auth.getSession', api_key: 'xxxxxxxx' };
    expect(lastfmSignature({ ...params, format: 'json' }, 'ilovecher')).toBe(
      '50b30c3b138fd7e02ae9d9f4b3e84c30',
    );
  });

  it('reads invalid sessions as lost access and outages as worth a retry', () => {
    expect(failureOfLastfmCode(9)).toBe('auth');
    expect(failureOfLastfmCode(4)).toBe('auth');
    expect(failureOfLastfmCode(16)).toBe('retry');
    expect(failureOfLastfmCode(29)).toBe('retry');
    expect(failureOfLastfmCode(6)).toBe('rejected');
  });
});
