import crypto from 'node:crypto';
import type { Clock } from '../../../core/clock.ts';

/*
 * A showing (docs/decisions/0023): the token get-active-ads hands out with an ad, and the
 * one thing track-ad-impression accepts as proof that this listener was shown this ad. It is
 * `<showing uuid>.<expiry>.<HMAC>` over (uuid, expiry, ad, user) with a key derived from
 * SECRET_KEY, so handing one out writes nothing (a GET stays a read) and nobody can make one
 * for another ad, another user or a later time. The uuid is what ad_impressions.showing_id
 * keeps unique: one impression per showing.
 */

/** How long a showing may be reported: the card reports it when it appears. */
export const SHOWING_TTL_SECONDS = 60 * 60;

export type ShowingCheck =
  { ok: true; showingId: string } | { ok: false; why: 'not-issued' | 'expired' };

export type ShowingSigner = ReturnType<typeof createShowingSigner>;

export function createShowingSigner({
  secretKey,
  clock,
  newId = () => crypto.randomUUID(),
}: {
  secretKey: string;
  clock: Clock;
  newId?: () => string;
}) {
  const key = Buffer.from(crypto.hkdfSync('sha256', secretKey, 'canto', 'canto:ad-showing', 32));
  const mac = (showingId: string, expiry: string, adId: string, userId: string) =>
    crypto
      .createHmac('sha256', key)
      .update(`${showingId}\n${expiry}\n${adId}\n${userId}`)
      .digest('base64url');

  return {
    /** A fresh showing of `adId` to `userId`. */
    issue(adId: string, userId: string): string {
      const showingId = newId();
      const expiry = (Math.floor(clock.now().getTime() / 1000) + SHOWING_TTL_SECONDS).toString(36);
      return `${showingId}.${expiry}.${mac(showingId, expiry, adId, userId)}`;
    },

    /** Whether `token` is a live showing of `adId` to `userId` (the contract checked its form). */
    check(token: string, adId: string, userId: string): ShowingCheck {
      const [showingId = '', expiry = '', signature = ''] = token.split('.');
      const expected = Buffer.from(mac(showingId, expiry, adId, userId));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
        return { ok: false, why: 'not-issued' };
      if (parseInt(expiry, 36) * 1000 <= clock.now().getTime())
        return { ok: false, why: 'expired' };
      return { ok: true, showingId };
    },
  };
}
