// Server state of the MFA screens: the factor list, enrolment, challenges and verification.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { mfaApi } from '@/contracts/api/mfa.api.ts';
import type { AuthSession, SessionInfo } from '@/contracts/auth.contract.ts';
import type { Factor, FactorType, VerifyFactorBody } from '@/contracts/mfa.contract.ts';
import { api } from '@/web/lib/api-client.ts';
import { sessionKey } from '@/web/session/use-session.ts';

export const factorsKey = ['auth', 'factors'] as const;

export function useFactors() {
  return useQuery({ queryKey: factorsKey, queryFn: () => api(mfaApi.factors) });
}

/** A verification returns the elevated session: it replaces the cached one at once. */
function adoptElevated(qc: QueryClient, s: AuthSession) {
  const info: SessionInfo = {
    user: s.user,
    aal: s.aal,
    next_aal: s.next_aal,
    returning: s.returning,
    expires_at: s.expires_at,
  };
  qc.setQueryData(sessionKey, info);
  return qc.invalidateQueries({ queryKey: factorsKey });
}

const labels: Record<FactorType, string> = {
  totp: 'Authenticator app',
  webauthn: 'Passkey',
  phone: 'Phone',
};
export const factorLabel = (f: Pick<Factor, 'factor_type' | 'friendly_name'>) =>
  f.friendly_name ?? labels[f.factor_type];

/** "Passkey", then "Passkey 2", … — names are unique per account. */
function freeName(type: FactorType, existing: Factor[] | undefined): string {
  const taken = new Set((existing ?? []).map((f) => f.friendly_name));
  const base = labels[type];
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!taken.has(name)) return name;
  }
}

const challenge = (factorId: string) => api(mfaApi.challenge, { params: { factorId } });
const verify = (factorId: string, body: VerifyFactorBody) =>
  api(mfaApi.verify, { params: { factorId }, body });

/** The browser's credential as the verify body carries it: the same JSON, as plain objects. */
const credentialBody = (c: RegistrationResponseJSON | AuthenticationResponseJSON) => ({
  ...c,
  response: { ...c.response },
  clientExtensionResults: { ...c.clientExtensionResults },
});

/** A cancelled or timed-out browser prompt, as opposed to a server refusal. */
export function isPromptDismissed(e: unknown): boolean {
  return e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'AbortError');
}

export function useEnrolTotp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api(mfaApi.enrol, {
        body: {
          factor_type: 'totp',
          friendly_name: freeName('totp', qc.getQueryData<Factor[]>(factorsKey)),
        },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: factorsKey }),
  });
}

/** Answers a TOTP factor with a code (a challenge is opened for it). */
export function useVerifyCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ factorId, code }: { factorId: string; code: string }) => {
      const ch = await challenge(factorId);
      return verify(factorId, { challenge_id: ch.id, code });
    },
    onSuccess: (session) => adoptElevated(qc, session),
  });
}

/** Creates a passkey with the browser and verifies it; an abandoned attempt leaves nothing behind. */
export function useAddPasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const enrolled = await api(mfaApi.enrol, {
        body: {
          factor_type: 'webauthn',
          friendly_name: freeName('webauthn', qc.getQueryData<Factor[]>(factorsKey)),
        },
      });
      const ceremony = enrolled.webauthn;
      if (!ceremony?.webauthn) throw new Error('The server sent no passkey options');
      try {
        const credential = await startRegistration({
          optionsJSON: ceremony.webauthn
            .options as unknown as PublicKeyCredentialCreationOptionsJSON,
        });
        return await verify(enrolled.id, {
          challenge_id: ceremony.id,
          credential: credentialBody(credential),
        });
      } catch (e) {
        await api(mfaApi.remove, { params: { factorId: enrolled.id } }).catch(() => {});
        throw e;
      }
    },
    onSuccess: (session) => adoptElevated(qc, session),
    onSettled: () => qc.invalidateQueries({ queryKey: factorsKey }),
  });
}

/** Proves a verified passkey: challenge, browser prompt, verify. */
export function useProvePasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (factorId: string) => {
      const ch = await challenge(factorId);
      if (ch.webauthn?.kind !== 'authentication') throw new Error('This passkey is not set up yet');
      const credential = await startAuthentication({
        optionsJSON: ch.webauthn.options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return verify(factorId, { challenge_id: ch.id, credential: credentialBody(credential) });
    },
    onSuccess: (session) => adoptElevated(qc, session),
  });
}

export function useRemoveFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (factorId: string) => api(mfaApi.remove, { params: { factorId } }),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: factorsKey });
      // Removing the last verified factor changes what the session could reach.
      await qc.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
