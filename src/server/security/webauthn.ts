import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

// The library (~18 MB resident, the heaviest import of the server) is loaded on the first
// passkey operation, not at start (docs/decisions/0009).
const webauthn = () => import('@simplewebauthn/server');

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

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; displayName: string | null },
  existing: { id: string; transports: string[] }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
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

export async function authenticationOptions(
  rp: RelyingParty,
  credential: { id: string; transports: string[] },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
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
  const { verifyRegistrationResponse } = await webauthn();
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
  const { verifyAuthenticationResponse } = await webauthn();
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
