import crypto from 'node:crypto';
import net from 'node:net';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  CHALLENGE_TTL_MS,
  challengeState,
  mayEnrolFactor,
  mayRemoveFactor,
  type Aal,
} from '../../../core/auth/aal.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type {
  Challenge,
  EnrolledFactor,
  Factor,
  WebauthnCeremony,
} from '../../../contracts/mfa.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Principal } from '../../http/access-policy.ts';
import { rateRules, type RateLimiter } from '../../security/rate-limit.ts';
import {
  splitTransports,
  type FactorRow,
  type MfaRepository,
  type VerificationUpdate,
} from './mfa.repository.ts';
import {
  checkTotp,
  createSecretCipher,
  newTotpSecret,
  totpUri,
  type SecretCipher,
} from '../../security/totp.ts';
import {
  authenticationOptions,
  registrationOptions,
  relyingPartyOf,
  verifyAuthentication,
  verifyRegistration,
  type RelyingParty,
} from '../../security/webauthn.ts';
import type { Log } from '../../log.ts';

export type MfaServiceDeps = {
  repo: MfaRepository;
  /** The shared limiter: verification attempts per factor (rateRules.mfaVerifyPerFactor). */
  limiter: Pick<RateLimiter, 'hit' | 'clear'>;
  clock: Clock;
  publicUrl: string;
  secretKey: string;
  log: Log;
};

export type EnrolInput = {
  factor_type: 'totp' | 'webauthn' | 'phone';
  friendly_name?: string;
  issuer?: string;
  phone?: string;
};
export type VerifyInput = {
  challenge_id: string;
  code?: string;
  credential?: Record<string, unknown>;
};

export type MfaService = ReturnType<typeof createMfaService>;

/** A generous cap; abandoned enrolments are replaced by name, but unnamed ones pile up. */
const MAX_FACTORS = 20;

const invalid = (message = 'Invalid verification code') =>
  new AppError(ErrorCode.mfaInvalid, message);
const notFound = () => new AppError(ErrorCode.notFound, 'Factor not found');
const stepUp = (message: string) => new AppError(ErrorCode.insufficientAal, message);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function toFactor(row: FactorRow): Factor {
  return {
    id: row.id,
    factor_type: row.type,
    friendly_name: row.friendlyName,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

export function createMfaService({
  repo,
  limiter,
  clock,
  publicUrl,
  secretKey,
  log,
}: MfaServiceDeps) {
  const rp: RelyingParty = relyingPartyOf(publicUrl);
  if (net.isIP(rp.id)) {
    log.warn(
      { publicUrl },
      'PUBLIC_URL is an IP address: browsers refuse passkeys for it (use a host name such as localhost)',
    );
  }
  let cipher: SecretCipher | undefined;
  const secrets = () => (cipher ??= createSecretCipher(secretKey));

  async function ownFactor(userId: string, factorId: string): Promise<FactorRow> {
    const row = await repo.findFactor(userId, factorId);
    if (!row) throw notFound();
    return row;
  }

  /** Enrolling or completing a new factor needs aal2 once the account has a verified one. */
  async function assertMayEnrol(principal: Principal) {
    if (!mayEnrolFactor(principal.aal, await repo.hasVerifiedFactor(principal.userId))) {
      throw stepUp('Verify an existing factor before adding another');
    }
  }

  /** A new passkey's registration options: reads only, so it may run before any write. */
  async function registrationCeremony(userId: string): Promise<WebauthnCeremony> {
    const account = await repo.account(userId);
    if (!account) throw notFound();
    const options = await registrationOptions(
      rp,
      { id: userId, ...account },
      await repo.passkeysOf(userId),
    );
    return { kind: 'registration', options: options as unknown as Record<string, unknown> };
  }

  async function openChallenge(factor: FactorRow, userId: string): Promise<Challenge> {
    const now = clock.now();
    let ceremony: WebauthnCeremony | undefined;
    if (factor.type === 'webauthn') {
      if (factor.status === 'verified' && factor.credentialId) {
        const options = await authenticationOptions(rp, {
          id: factor.credentialId,
          transports: splitTransports(factor.transports),
        });
        ceremony = {
          kind: 'authentication',
          options: options as unknown as Record<string, unknown>,
        };
      } else {
        ceremony = await registrationCeremony(userId);
      }
    }
    const row = await repo.createChallenge({
      factorId: factor.id,
      challenge: ceremony ? String(ceremony.options.challenge) : null,
      now,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    });
    return {
      id: row.id,
      factor_id: factor.id,
      expires_at: seconds(row.expiresAt),
      ...(ceremony && { webauthn: ceremony }),
    };
  }

  async function checkResponse(
    factor: FactorRow,
    challenge: string | null,
    input: VerifyInput,
  ): Promise<VerificationUpdate> {
    const now = clock.now();
    if (factor.type === 'totp') {
      if (input.code === undefined || !factor.secretEncrypted)
        throw invalid('This factor takes a verification code');
      const secret = secrets().decrypt(factor.secretEncrypted, factor.id);
      const result = await checkTotp({
        secret,
        code: input.code,
        now,
        lastUsedStep: factor.lastUsedStep,
      });
      if (!result.ok)
        throw invalid(result.reason === 'reused' ? 'This code has already been used' : undefined);
      return { kind: 'totp', step: result.step };
    }
    if (factor.type === 'webauthn') {
      if (!input.credential || !challenge) throw invalid('This factor takes a passkey response');
      try {
        if (factor.status === 'verified' && factor.credentialId && factor.publicKey) {
          const result = await verifyAuthentication(
            rp,
            input.credential as unknown as AuthenticationResponseJSON,
            challenge,
            {
              id: factor.credentialId,
              publicKey: factor.publicKey,
              counter: factor.signCount ?? 0,
              transports: splitTransports(factor.transports),
            },
          );
          if (result) return { kind: 'webauthn-authentication', signCount: result.newCounter };
        } else {
          const credential = await verifyRegistration(
            rp,
            input.credential as unknown as RegistrationResponseJSON,
            challenge,
          );
          if (credential) {
            return {
              kind: 'webauthn-registration',
              credentialId: credential.id,
              publicKey: credential.publicKey,
              signCount: credential.counter,
              transports: credential.transports,
            };
          }
        }
      } catch (error) {
        // The library throws on any malformed or mismatched response; to the caller it is a failed check.
        log.info(
          { factorId: factor.id, reason: (error as Error).message },
          'passkey response rejected',
        );
      }
      throw invalid('The passkey response could not be verified');
    }
    throw new AppError(ErrorCode.notConfigured, 'SMS provider not configured');
  }

  return {
    async list(userId: string): Promise<Factor[]> {
      return (await repo.listFactors(userId)).map(toFactor);
    },

    async enrol(principal: Principal, input: EnrolInput): Promise<EnrolledFactor> {
      // Spec: the phone factor answers "not configured" unless an SMS provider is set (none is supported yet).
      if (input.factor_type === 'phone')
        throw new AppError(ErrorCode.notConfigured, 'SMS provider not configured');
      await assertMayEnrol(principal);
      if ((await repo.countFactors(principal.userId)) >= MAX_FACTORS) {
        throw new AppError(ErrorCode.conflict, 'Too many factors: remove one first');
      }
      const account = await repo.account(principal.userId);
      if (!account) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');

      const id = crypto.randomUUID();
      // Everything that can throw (the URI encodes the issuer; a passkey's registration
      // options) runs before the rows are written, so a refusal never leaves an unverified
      // factor behind; a passkey's factor and challenge are written together.
      const secret = input.factor_type === 'totp' ? newTotpSecret() : null;
      const totp = secret
        ? {
            secret,
            uri: totpUri({ issuer: input.issuer ?? 'Canto', label: account.email, secret }),
          }
        : null;
      const secretEncrypted = secret ? secrets().encrypt(secret, id) : null;
      const ceremony =
        input.factor_type === 'webauthn' ? await registrationCeremony(principal.userId) : null;
      const now = clock.now();
      const created = await repo.createFactor({
        id,
        userId: principal.userId,
        type: input.factor_type,
        friendlyName: input.friendly_name ?? null,
        secretEncrypted,
        now,
        ...(ceremony && {
          challenge: {
            challenge: String(ceremony.options.challenge),
            expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
          },
        }),
      });
      if (!created)
        throw new AppError(ErrorCode.conflict, 'A factor with this name already exists');

      const { factor: row, challenge } = created;
      const base = { id: row.id, type: row.type, friendly_name: row.friendlyName };
      if (totp) return { ...base, totp };
      // A passkey: its challenge was written with the factor.
      return {
        ...base,
        webauthn: {
          id: challenge!.id,
          factor_id: row.id,
          expires_at: seconds(challenge!.expiresAt),
          webauthn: ceremony!,
        },
      };
    },

    async challenge(principal: Principal, factorId: string): Promise<Challenge> {
      const factor = await ownFactor(principal.userId, factorId);
      if (factor.type === 'phone')
        throw new AppError(ErrorCode.notConfigured, 'SMS provider not configured');
      return openChallenge(factor, principal.userId);
    },

    /** Checks the response to a challenge; throws unless the factor is now proven. */
    async verify(principal: Principal, factorId: string, input: VerifyInput): Promise<void> {
      const factor = await ownFactor(principal.userId, factorId);
      if (factor.status === 'unverified') await assertMayEnrol(principal);

      const now = clock.now();
      const challenge = await repo.findChallenge(factor.id, input.challenge_id);
      if (!challenge) throw invalid('Challenge not found');
      const state = challengeState(challenge, now);
      if (state === 'expired') throw invalid('Challenge has expired');
      if (state === 'used') throw invalid('Challenge has already been used');

      // Counted before checking, so parallel guesses cannot slip past the limit.
      const attempts = { rule: rateRules.mfaVerifyPerFactor, subject: factor.id };
      await limiter.hit(attempts);

      const update = await checkResponse(factor, challenge.challenge, input);
      const outcome = await repo.completeVerification({
        factorId: factor.id,
        challengeId: challenge.id,
        now,
        update,
      });
      if (outcome === 'challenge-used') throw invalid('Challenge has already been used');
      if (outcome === 'step-used') throw invalid('This code has already been used');
      if (outcome === 'credential-taken')
        throw new AppError(ErrorCode.conflict, 'This passkey is already registered');
      await limiter.clear(attempts.rule, attempts.subject);
    },

    async remove(principal: Principal, factorId: string): Promise<void> {
      const factor = await ownFactor(principal.userId, factorId);
      if (!mayRemoveFactor(principal.aal as Aal, factor.status)) {
        throw stepUp('Verify a factor before removing a verified one');
      }
      if (!(await repo.deleteFactor(principal.userId, factor.id))) throw notFound();
      await limiter.clear(rateRules.mfaVerifyPerFactor, factor.id);
    },
  };
}
