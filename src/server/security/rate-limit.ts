import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError, ErrorCode } from '../../core/errors.ts';
import type { RateLimitsRepository } from './rate-limits.repository.ts';

export type RateRule = { name: string; limit: number; windowMs: number };

const MINUTE = 60_000;
export const rateRules = {
  signInPerIpEmail: { name: 'sign-in:ip-email', limit: 10, windowMs: 5 * MINUTE },
  signInPerIp: { name: 'sign-in:ip', limit: 30, windowMs: 5 * MINUTE },
  signUpPerIp: { name: 'sign-up:ip', limit: 5, windowMs: 60 * MINUTE },
  recoverPerIp: { name: 'recover:ip', limit: 5, windowMs: 15 * MINUTE },
  recoverPerEmail: { name: 'recover:email', limit: 3, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;

/**
 * The caller's address: the socket's, or behind a proxy listed in TRUST_PROXY the address
 * that proxy saw (Fastify's trustProxy walks X-Forwarded-For from the right and stops at the
 * first untrusted hop). A header from any other peer is ignored, so a client cannot pick a
 * fresh key for each attempt.
 */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? request.socket?.remoteAddress ?? 'unknown';
}

/** Emails in keys are hashed: the counter table holds no addresses. */
export function emailKey(email: string): string {
  return crypto.createHash('sha256').update(email).digest('hex').slice(0, 32);
}

export function createRateLimiter(deps: { repo: RateLimitsRepository; now: () => Date }) {
  return {
    /** Counts one attempt against each rule; throws 429 rate_limited when any is over. */
    async hit(...checks: Array<{ rule: RateRule; subject: string }>): Promise<void> {
      const now = deps.now();
      let retryAfter = 0;
      for (const { rule, subject } of checks) {
        const cutoff = new Date(now.getTime() - rule.windowMs);
        const { hits, windowStart } = await deps.repo.hit(`${rule.name}:${subject}`, now, cutoff);
        if (hits > rule.limit) {
          const ends = windowStart.getTime() + rule.windowMs;
          retryAfter = Math.max(retryAfter, Math.ceil((ends - now.getTime()) / 1000), 1);
        }
      }
      if (retryAfter > 0) {
        throw new AppError(ErrorCode.rateLimited, 'Too many requests. Please try again later.', {
          retryAfter,
        });
      }
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
