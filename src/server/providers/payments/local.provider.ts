import crypto from 'node:crypto';
import { LOCAL_CHECKOUT_TTL_MS } from '../../../core/validation/premium.rules.ts';
import type { LocalPayments } from './payment-provider.ts';

const SESSION = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * PAYMENTS=local: Canto's own test-mode checkout (no card, nothing charged). A checkout
 * session is a signed link, `<id>.<expiry>.<HMAC(user, id, expiry)>`, so creating one writes
 * nothing and only the user it was made for can confirm it before it expires.
 */
export function createLocalPayments({ secretKey }: { secretKey: string }): LocalPayments {
  const key = Buffer.from(
    crypto.hkdfSync('sha256', secretKey, 'canto', 'canto:local-checkout', 32),
  );
  const mac = (userId: string, id: string, expiry: string) =>
    crypto.createHmac('sha256', key).update(`${userId}.${id}.${expiry}`).digest('base64url');

  return {
    kind: 'local',
    createCheckout(userId, now) {
      const sessionId = crypto.randomBytes(16).toString('base64url');
      const expiresAt = new Date(now.getTime() + LOCAL_CHECKOUT_TTL_MS);
      const expiry = String(Math.floor(expiresAt.getTime() / 1000));
      const session = `${sessionId}.${expiry}.${mac(userId, sessionId, expiry)}`;
      return { url: `/premium/checkout?session=${session}`, sessionId, expiresAt };
    },
    openCheckout(session, userId, now) {
      const parts = SESSION.exec(session);
      if (!parts) return 'invalid';
      const [, sessionId, expiry, given] = parts as unknown as [string, string, string, string];
      const expected = Buffer.from(mac(userId, sessionId, expiry));
      if (!crypto.timingSafeEqual(expected, Buffer.from(given))) return 'invalid';
      const expiresAt = new Date(Number(expiry) * 1000);
      if (expiresAt <= now) return 'expired';
      return { sessionId, expiresAt };
    },
    portalUrl: () => '/premium/manage',
  };
}
