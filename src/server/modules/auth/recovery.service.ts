import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Clock } from '../../../core/clock.ts';
import type { AuthTokensRepository, AuthTokenKind } from './auth-tokens.repository.ts';
import type { UsersRepository } from './users.repository.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { hashPassword } from '../../security/passwords.ts';
import { newOpaqueToken, tokenHash } from '../../security/tokens.ts';
import type { Log } from '../../log.ts';

export type RecoveryService = ReturnType<typeof createRecoveryService>;

const HOUR = 60 * 60 * 1000;
/** The web app's pages the mailed links open (they read `?token=`). */
export const RESET_PAGE = '/reset-password';
export const VERIFY_PAGE = '/verify-email';
const lifetime: Record<AuthTokenKind, number> = {
  password_reset: HOUR,
  email_verification: 24 * HOUR,
};

/** Password reset and email verification by single-use emailed links. */
export function createRecoveryService(deps: {
  users: UsersRepository;
  tokens: AuthTokensRepository;
  mailer: Mailer;
  publicUrl: string;
  clock: Clock;
  log: Log;
  /** A reset ended the user's other sessions: what holds them in memory lets go. */
  sessionsEnded(userId: string): void;
}) {
  const { users, tokens, mailer, clock } = deps;

  async function issue(userId: string, kind: AuthTokenKind): Promise<string> {
    const token = newOpaqueToken();
    const now = clock.now();
    await tokens.create({
      userId,
      kind,
      tokenHash: tokenHash(token),
      now,
      expiresAt: new Date(now.getTime() + lifetime[kind]),
    });
    return token;
  }

  // Not awaited by callers: a slow SMTP server must neither delay the answer nor reveal,
  // by timing, that an address exists. Failures are logged without the link.
  function sendInBackground(to: string, subject: string, text: string) {
    mailer.send({ to, subject, text }).catch((err: unknown) => {
      deps.log.error(
        { err: err instanceof Error ? err.message : String(err), subject },
        'mail failed',
      );
    });
  }

  async function sendVerification(userId: string, email: string): Promise<void> {
    if (!mailer.delivers) return;
    const token = await issue(userId, 'email_verification');
    const link = `${deps.publicUrl}${VERIFY_PAGE}?token=${encodeURIComponent(token)}`;
    sendInBackground(
      email,
      'Confirm your Canto email',
      `Welcome to Canto!\n\nConfirm your email address:\n${link}\n`,
    );
  }

  return {
    /** Always succeeds from the caller's view; mails a reset link only to a known address. */
    async requestPasswordReset(email: string): Promise<void> {
      const user = await users.findCredentialsByEmail(email);
      if (!user) return;
      const token = await issue(user.id, 'password_reset');
      const link = `${deps.publicUrl}${RESET_PAGE}?token=${encodeURIComponent(token)}`;
      sendInBackground(
        email,
        'Reset your Canto password',
        `Someone asked to reset the password of your Canto account.\n\nOpen this link within an hour to choose a new one:\n${link}\n\nIf it was not you, ignore this message.`,
      );
    },

    /**
     * Sets the new password, spends the token (and every other reset link of the account) and
     * signs the user out everywhere, atomically. Returns the user, whom the caller signs in.
     */
    async resetPassword(token: string, password: string): Promise<{ userId: string }> {
      const hash = tokenHash(token);
      const invalid = () =>
        new AppError(ErrorCode.validation, 'Password reset link is invalid or has expired');
      // Checked before argon2 runs (19 MiB, tens of ms): a bogus token costs one index lookup.
      if (!(await tokens.isLive({ kind: 'password_reset', tokenHash: hash, now: clock.now() })))
        throw invalid();
      const passwordHash = await hashPassword(password);
      // Spent atomically; a concurrent reset with the same link may have won meanwhile.
      const done = await tokens.resetPassword({ tokenHash: hash, passwordHash, now: clock.now() });
      if (!done) throw invalid();
      deps.sessionsEnded(done.userId);
      return done;
    },

    /** Only with real mail (SMTP_URL); without it verification is off and nothing is sent. */
    sendVerification,

    /** A new link for a signed-in user whose address is still unconfirmed (the last one expired). */
    async resendVerification(userId: string): Promise<void> {
      // Without mail, verification is off: nothing waits for it, so there is nothing to resend.
      if (!mailer.delivers)
        throw new AppError(ErrorCode.conflict, 'Email verification is off on this server');
      const user = await users.findById(userId);
      if (!user) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
      if (user.emailVerifiedAt)
        throw new AppError(ErrorCode.conflict, 'Your email address is already confirmed');
      await sendVerification(user.id, user.email);
    },

    async verifyEmail(token: string): Promise<void> {
      const now = clock.now();
      const spent = await tokens.consume({
        kind: 'email_verification',
        tokenHash: tokenHash(token),
        now,
      });
      if (!spent)
        throw new AppError(ErrorCode.validation, 'Verification link is invalid or has expired');
      await users.markEmailVerified(spent.userId, now);
    },
  };
}
