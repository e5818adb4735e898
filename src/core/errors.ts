// Domain errors are a few plain codes; each protocol maps them once (server/http-errors.ts).
export const ErrorCode = {
  validation: 'validation_failed',
  unauthenticated: 'auth_required',
  invalidCredentials: 'invalid_credentials',
  sessionExpired: 'auth_session_expired',
  refreshReused: 'auth_refresh_reused',
  // The session is aal1 but the user has a verified factor: pass its challenge first.
  insufficientAal: 'insufficient_aal',
  mfaInvalid: 'auth_mfa_invalid',
  forbidden: 'permission_denied',
  notFound: 'not_found',
  // The listening API names what is missing, a song or a play (docs/decisions/0016).
  songNotFound: 'song_not_found',
  playNotFound: 'play_not_found',
  conflict: 'duplicate',
  rateLimited: 'rate_limited',
  // Why an ad impression is not counted (docs/decisions/0023): each refusal writes nothing.
  adShowingNotFound: 'ad_showing_not_found',
  adShowingExpired: 'ad_showing_expired',
  adShowingTooEarly: 'ad_showing_too_early',
  adInactive: 'ad_inactive',
  adListenerPremium: 'ad_listener_premium',
  // Money (docs/decisions/0029): each refusal moves no balance and writes nothing.
  insufficientBalance: 'insufficient_balance',
  withdrawalNotPending: 'withdrawal_not_pending',
  idempotencyKeyReused: 'idempotency_key_reused',
  revenueRunInProgress: 'revenue_run_in_progress',
  monthNotStarted: 'month_not_started',
  payloadTooLarge: 'payload_too_large',
  unsupportedMedia: 'unsupported_media',
  // Audio of a known kind that is still refused: it does not decode, or its length is absurd.
  unprocessableMedia: 'unprocessable_media',
  rangeNotSatisfiable: 'range_not_satisfiable',
  notConfigured: 'not_configured',
  // A representation the endpoint does not offer (oEmbed's format=xml: oembed.com §2.3.4).
  formatNotImplemented: 'format_not_implemented',
  // The AI provider timed out, refused or answered nonsense (docs/decisions/0031).
  aiGenerationFailed: 'ai_generation_failed',
  // The database (or another part the request needs) cannot be reached right now.
  serviceUnavailable: 'service_unavailable',
  internal: 'internal_error',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const fail = (
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): never => {
  throw new AppError(code, message, details);
};
