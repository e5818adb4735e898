import { describe, expect, it } from 'vitest';
import { SHOWING_PATTERN } from '../../../contracts/ads.contract.ts';
import { createShowingSigner, SHOWING_TTL_SECONDS } from './ad-showing.ts';

const AD = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

function signer(secretKey = 'k'.repeat(40)) {
  let t = Date.UTC(2027, 0, 1);
  const clock = { now: () => new Date(t) };
  return {
    showings: createShowingSigner({ secretKey, clock }),
    advance: (ms: number) => (t += ms),
  };
}

describe('ad showings', () => {
  it('are fresh uuids in the contract form, good for their ad and user until they expire', () => {
    const { showings, advance } = signer();
    const token = showings.issue(AD, USER);
    expect(token).toMatch(SHOWING_PATTERN);
    expect(showings.issue(AD, USER).split('.')[0]).not.toBe(token.split('.')[0]);
    expect(showings.check(token, AD, USER)).toEqual({ ok: true, showingId: token.split('.')[0] });
    advance(SHOWING_TTL_SECONDS * 1000 - 1000);
    expect(showings.check(token, AD, USER).ok).toBe(true);
    advance(1000);
    expect(showings.check(token, AD, USER)).toEqual({ ok: false, why: 'expired' });
  });

  it('are refused for another ad, another user, another key or any changed part', () => {
    const { showings } = signer();
    const token = showings.issue(AD, USER);
    const [id, expiry, mac] = token.split('.') as [string, string, string];
    expect(showings.check(token, USER, USER).ok).toBe(false);
    expect(showings.check(token, AD, AD).ok).toBe(false);
    expect(signer('z'.repeat(40)).showings.check(token, AD, USER).ok).toBe(false);
    const later = (parseInt(expiry, 36) + 60).toString(36);
    for (const forged of [
      `${id}.${later}.${mac}`,
      `${id.replace(/^./, id[0] === 'a' ? 'b' : 'a')}.${expiry}.${mac}`,
      `${id}.${expiry}.${mac.slice(1)}x`,
      `${id}.${expiry}`,
    ])
      expect(showings.check(forged, AD, USER)).toEqual({ ok: false, why: 'not-issued' });
  });
});
