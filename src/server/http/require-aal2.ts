import { needsStepUp } from '../../core/auth/aal.ts';
import { AppError, ErrorCode } from '../../core/errors.ts';
import type { Principal } from './access-policy.ts';

/**
 * A user with a verified factor reaches the API only from an aal2 session (docs/decisions/0002,
 * "aal2 on every route"): a password alone opens nothing but the challenge itself. The access
 * policy calls this for every non-public route that does not opt out (`config.allowAal1`), so a new
 * route is covered by default. Throws 403 insufficient_aal; users without a factor pass at aal1.
 */
export function requireAal2IfEnrolled(principal: Principal): void {
  if (needsStepUp(principal.aal, principal.hasVerifiedFactor)) {
    throw new AppError(ErrorCode.insufficientAal, 'Multi-factor verification required', {
      next_aal: 'aal2',
    });
  }
}
