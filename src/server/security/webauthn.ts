import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';

export type RelyingParty = { id: string; name: string; origin: string };

/** The relying party is the public URL: its host is the rpID, its origin the only origin. */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: 'Canto', origin: url.origin };
}

export type StoredCredential = {
  id: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
};

const TIMEOUT_MS = 5 * 60_000;

export function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; displayName: string | null },
  existing: { id: string; transports: string[] }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // The stable user id, so an authenticator replaces its own passkey for this account.
    userID: new Uint8Array(Buffer.from(user.id.replaceAll('-', ''), 'hex')),
    userName: user.email,
    userDisplayName: user.displayName ?? user.email,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

export function authenticationOptions(
  rp: RelyingParty,
  credential: { id: string; transports: string[] },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: [credential],
    userVerification: 'preferred',
    timeout: TIMEOUT_MS,
  });
}

/** Verifies a registration; null when it does not check out (the library's reason is logged by the caller). */
export async function verifyRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
): Promise<StoredCredential | null> {
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  });
  if (!result.verified) return null;
  const { credential } = result.registrationInfo;
  return {
    id: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** Verifies an assertion by the stored credential; returns the new signature counter or null. */
export async function verifyAuthentication(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: StoredCredential,
): Promise<{ newCounter: number } | null> {
  if (response.id !== credential.id) return null;
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: credential.id,
      publicKey: new Uint8Array(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports,
    },
    requireUserVerification: false,
  });
  return result.verified ? { newCounter: result.authenticationInfo.newCounter } : null;
}
