import { z } from 'zod';

// Spec §7 Auth, multi-factor: enrol, challenge, verify, remove. The web app and the API
// tests both use these shapes.

export const factorType = z.enum(['totp', 'webauthn', 'phone']);
export type FactorType = z.infer<typeof factorType>;
export const factorStatus = z.enum(['unverified', 'verified']);

export const factor = z.object({
  id: z.uuid(),
  factor_type: factorType,
  friendly_name: z.string().nullable(),
  status: factorStatus,
  created_at: z.string().describe('ISO 8601'),
});
export type Factor = z.infer<typeof factor>;
export const factorList = z.array(factor);

export const enrolFactorBody = z.object({
  factor_type: factorType,
  friendly_name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(50, 'Name must be at most 50 characters')
    .optional(),
  /** The issuer an authenticator app shows next to the code (TOTP); defaults to Canto. */
  issuer: z.string().trim().min(1).max(64).optional(),
  phone: z.string().trim().max(32).optional(),
});
export type EnrolFactorBody = z.input<typeof enrolFactorBody>;

/** WebAuthn options JSON for navigator.credentials; validated in depth by the libraries. */
const webauthnOptions = z.record(z.string(), z.unknown());

export const webauthnCeremony = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('registration'), options: webauthnOptions }),
  z.object({ kind: z.literal('authentication'), options: webauthnOptions }),
]);
export type WebauthnCeremony = z.infer<typeof webauthnCeremony>;

export const challenge = z.object({
  id: z.uuid(),
  factor_id: z.uuid(),
  expires_at: z.number().int().describe('seconds since epoch'),
  webauthn: webauthnCeremony.optional(),
});
export type Challenge = z.infer<typeof challenge>;

export const enrolledFactor = z.object({
  id: z.uuid(),
  type: factorType,
  friendly_name: z.string().nullable(),
  /** TOTP: shown once, for the authenticator app (the otpauth URI carries the same secret). */
  totp: z.object({ secret: z.string(), uri: z.string() }).optional(),
  /** WebAuthn: the registration ceremony, answered by POST verify with this challenge id. */
  webauthn: challenge.optional(),
});
export type EnrolledFactor = z.infer<typeof enrolledFactor>;

const b64url = (max: number) => z.string().max(max);

/** A RegistrationResponseJSON or AuthenticationResponseJSON from @simplewebauthn/browser. */
export const webauthnCredential = z.looseObject({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url(8192) }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

export const verifyFactorBody = z
  .object({
    challenge_id: z.uuid(),
    code: z.string().trim().max(16).optional(),
    credential: webauthnCredential.optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.credential === undefined), {
    message: 'Provide either a code or a credential',
  });
export type VerifyFactorBody = z.input<typeof verifyFactorBody>;

export const factorParams = z.object({ factorId: z.uuid() });
