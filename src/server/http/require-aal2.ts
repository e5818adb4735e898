import type { FastifyRequest } from 'fastify';
import { needsStepUp } from '../../core/auth/aal.ts';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { requirePrincipal } from './access-policy.ts';

/**
 * For money actions (withdrawal requests, admin payouts; product.md §2): a user with a
 * verified factor must have passed its challenge in this session. Throws 403
 * auth_mfa_required when the session is still aal1; users without a factor pass.
 */
export async function requireAal2IfEnrolled(
  request: FastifyRequest,
  hasVerifiedFactor: (userId: string) => Promise<boolean>,
): Promise<void> {
  const principal = requirePrincipal(request);
  if (principal.aal === 'aal2') return;
  if (needsStepUp(principal.aal, await hasVerifiedFactor(principal.userId))) {
    throw new AppError(ErrorCode.mfaRequired, 'Multi-factor verification required', {
      next_aal: 'aal2',
    });
  }
}
