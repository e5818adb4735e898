import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { VERIFY_ATTEMPTS } from '../../core/auth/aal.ts';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { aiMessages } from '../../core/validation/ai.rules.ts';
import type { RateLimitsRepository } from './rate-limits.repository.ts';

export type RateRule = {
  name: string;
  limit: number;
  windowMs: number;
  /** What a refused caller reads; the generic one when unset. */
  message?: string;
};

const MINUTE = 60_000;
export const rateRules = {
  signInPerIpEmail: { name: 'sign-in:ip-email', limit: 10, windowMs: 5 * MINUTE },
  signInPerIp: { name: 'sign-in:ip', limit: 30, windowMs: 5 * MINUTE },
  signUpPerIp: { name: 'sign-up:ip', limit: 5, windowMs: 60 * MINUTE },
  recoverPerIp: { name: 'recover:ip', limit: 5, windowMs: 15 * MINUTE },
  recoverPerEmail: { name: 'recover:email', limit: 3, windowMs: 60 * MINUTE },
  resetPasswordPerIp: { name: 'reset-password:ip', limit: 10, windowMs: 15 * MINUTE },
  // A link is single-use; this caps one token tried from many addresses at once.
  resetPasswordPerToken: { name: 'reset-password:token', limit: 5, windowMs: 60 * MINUTE },
  verifyEmailPerIp: { name: 'verify-email:ip', limit: 10, windowMs: 15 * MINUTE },
  // Each resend mails someone: a few an hour is plenty for a lost or expired link.
  verifyEmailResendPerUser: { name: 'verify-email-resend:user', limit: 3, windowMs: 60 * MINUTE },
  // A listener asks for a showing once per Home visit and reports it once it has played
  // (docs/decisions/0023); more is a script.
  adShowingPerUser: { name: 'ad-showing:user', limit: 10, windowMs: MINUTE },
  adImpressionPerUser: { name: 'ad-impression:user', limit: 20, windowMs: MINUTE },
  // Each generation costs a provider call (or seconds of CPU); the limit is AI_GENERATIONS_PER_HOUR
  // (the ai module sets it), this is its default.
  aiGeneratePerUser: {
    name: 'ai-generate:user',
    limit: 30,
    windowMs: 60 * MINUTE,
    message: aiMessages.rateLimited,
  },
  // Subsonic apps authenticate every request (docs/decisions/0034): only failures count, and a
  // caller over either limit is refused before its credentials are looked at.
  subsonicAuthFailPerIp: {
    name: 'subsonic-auth:ip',
    limit: 30,
    windowMs: 5 * MINUTE,
    message: 'Too many failed sign-in attempts. Try again later.',
  },
  subsonicAuthFailPerIpUser: {
    name: 'subsonic-auth:ip-user',
    limit: 10,
    windowMs: 5 * MINUTE,
    message: 'Too many failed sign-in attempts. Try again later.',
  },
  // Counted before the check, so parallel guesses cannot slip past the limit; a success
  // clears it.
  mfaVerifyPerFactor: {
    name: 'mfa-verify',
    limit: VERIFY_ATTEMPTS.max,
    windowMs: VERIFY_ATTEMPTS.windowMs,
    message: 'Too many verification attempts. Try again later.',
  },
} satisfies Record<string, RateRule>;

/**
 * Expired rows go as the limiter writes, not on a timer: no job to start and stop with the
 * app, and the table only grows when attempts are counted, which is exactly when the sweep
 * runs. At most once a minute per process, and at most SWEEP_BATCH rows per write; a full
 * batch means a backlog, so the next write sweeps again.
 */
const SWEEP_EVERY_MS = MINUTE;
const SWEEP_BATCH = 500;
/** Rows under a name no rule has (one renamed or dropped since) have no window it knows. */
const OTHER_ROWS_KEPT_MS = 24 * 60 * MINUTE;

/**
 * The caller's address: the socket's, or behind a proxy listed in TRUST_PROXY the address
 * that proxy saw (Fastify's trustProxy walks X-Forwarded-For from the right and stops at the
 * first untrusted hop). A header from any other peer is ignored, so a client cannot pick a
 * fresh key for each attempt.
 */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? request.socket?.remoteAddress ?? 'unknown';
}

/** Emails and tokens in keys are hashed: the table holds no addresses and no live links. */
const digest = (value: string) =>
  crypto.createHash('sha256').update(value).digest('hex').slice(0, 32);
export const emailKey = (email: string): string => digest(email);
export const tokenKey = (token: string): string => digest(token);

export function createRateLimiter(deps: { repo: RateLimitsRepository; now: () => Date }) {
  const known: RateRule[] = Object.values(rateRules);
  let lastSweep = -Infinity;

  async function sweep(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    const deleted = await deps.repo.deleteExpired({
      prefixes: known.map((rule) => ({
        prefix: `${rule.name}:`,
        cutoff: new Date(now.getTime() - rule.windowMs),
      })),
      otherCutoff: new Date(now.getTime() - OTHER_ROWS_KEPT_MS),
      limit: SWEEP_BATCH,
    });
    if (deleted < SWEEP_BATCH) lastSweep = now.getTime();
  }

  return {
    /**
     * Counts one attempt against each rule; throws 429 rate_limited when any is over. A
     * refused attempt writes nothing: it is refused on a read of the existing counters, so
     * a flood of fresh emails or tokens from a blocked address adds no rows.
     */
    async hit(...checks: Array<{ rule: RateRule; subject: string }>): Promise<void> {
      const now = deps.now();
      const counted = checks.map(({ rule, subject }) => ({
        rule,
        key: `${rule.name}:${subject}`,
        cutoff: new Date(now.getTime() - rule.windowMs),
      }));
      // The message of the first rule that refuses; the longest wait of all of them.
      let refusedBy: RateRule | undefined;
      let retryAfter = 0;
      const over = (rule: RateRule, windowStart: Date) => {
        refusedBy ??= rule;
        const ends = Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000);
        retryAfter = Math.max(retryAfter, ends, 1);
      };
      const refuse = () =>
        new AppError(
          ErrorCode.rateLimited,
          refusedBy?.message ?? 'Too many requests. Please try again later.',
          { retryAfter },
        );

      const current = new Map(
        (await deps.repo.read(counted.map((c) => c.key))).map((r) => [r.key, r]),
      );
      for (const { rule, key, cutoff } of counted) {
        const row = current.get(key);
        if (row && row.windowStart > cutoff && row.hits >= rule.limit) over(rule, row.windowStart);
      }
      if (refusedBy) throw refuse();

      // Concurrent attempts may all pass the read; the atomic count settles who is over.
      for (const { rule, key, cutoff } of counted) {
        const { hits, windowStart } = await deps.repo.hit(key, now, cutoff);
        if (hits > rule.limit) over(rule, windowStart);
      }
      await sweep(now);
      if (refusedBy) throw refuse();
    },

    /** The first rule already at its limit for its subject, counting nothing; else null. */
    async over(...checks: Array<{ rule: RateRule; subject: string }>): Promise<RateRule | null> {
      const now = deps.now();
      const keys = checks.map(({ rule, subject }) => `${rule.name}:${subject}`);
      const current = new Map((await deps.repo.read(keys)).map((r) => [r.key, r]));
      for (const [i, { rule }] of checks.entries()) {
        const row = current.get(keys[i]!);
        if (
          row &&
          row.windowStart.getTime() > now.getTime() - rule.windowMs &&
          row.hits >= rule.limit
        )
          return rule;
      }
      return null;
    },

    /** Forgets the attempts counted under `rule` for `subject` (e.g. after a success). */
    async clear(rule: RateRule, subject: string): Promise<void> {
      await deps.repo.delete(`${rule.name}:${subject}`);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
