import { useEffect } from 'react';
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  AuthSession,
  ResetPasswordBody,
  Role,
  SessionInfo,
  SignInBody,
  SignUpBody,
} from '@/contracts/auth.contract.ts';
import { authApi } from '@/contracts/api/auth.api.ts';
import { offlineSession, rememberSession } from './offline-session.ts';
import {
  api,
  isApiError,
  refreshSession,
  setSignedOutHandler,
  setStepUpHandler,
} from '@/web/lib/api-client.ts';

export const sessionKey = ['auth', 'session'] as const;

async function fetchSession(): Promise<SessionInfo | null> {
  try {
    const session = await api(authApi.session);
    rememberSession(session);
    return session;
  } catch (e) {
    if (isApiError(e) && e.status === 401) {
      rememberSession(null);
      return null;
    }
    // Offline: the installed app opens with the last session the server confirmed.
    const offline = isApiError(e) && e.status === 0 ? offlineSession() : null;
    if (offline) return offline;
    throw e;
  }
}

/** Signed in with a password only while a verified factor exists: aal2 is owed. */
export const owesSecondFactor = (session: SessionInfo): boolean =>
  session.aal === 'aal1' && session.next_aal === 'aal2';

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out' | 'error';

export interface SessionState {
  status: SessionStatus;
  session: SessionInfo | null;
  user: SessionInfo['user'] | null;
  roles: readonly Role[];
  isArtist: boolean;
  isAdmin: boolean;
  isPendingArtist: boolean;
  /** Signed in with a password only while a verified factor exists: aal2 is owed. */
  needsMfa: boolean;
  retry: () => void;
}

/** The session query, for the hook and for main.tsx, which starts it before the first render. */
export const sessionQuery = queryOptions({
  queryKey: sessionKey,
  queryFn: fetchSession,
  staleTime: 60_000,
  // A network hiccup is retried; a definite answer from the server is not.
  retry: (count, e) => !(isApiError(e) && e.status > 0 && e.status < 500) && count < 2,
});

export function useSession(): SessionState {
  const query = useQuery({
    ...sessionQuery,
    // Roles can change elsewhere (an admin approves an artist): recheck when the tab returns.
    refetchOnWindowFocus: (q) => q.state.data != null,
  });
  const session = query.data ?? null;
  const roles = session?.user.roles ?? [];
  let status: SessionStatus;
  if (query.isPending) status = 'loading';
  else if (query.isError && !session) status = 'error';
  else status = session ? 'signed-in' : 'signed-out';
  return {
    status,
    session,
    user: session?.user ?? null,
    roles,
    isArtist: roles.includes('artist'),
    isAdmin: roles.includes('admin'),
    isPendingArtist: roles.includes('pending_artist'),
    needsMfa: session ? owesSecondFactor(session) : false,
    retry: () => void query.refetch(),
  };
}

const REFRESH_LEAD_MS = 60_000;
const MAX_TIMER_MS = 2_147_483_647;

function markSignedOut(qc: QueryClient) {
  rememberSession(null);
  qc.setQueryData(sessionKey, null);
}

async function refreshNow(qc: QueryClient) {
  // Offline no refresh can succeed: it is tried when the network is back, not taken as signed out.
  if (!navigator.onLine) return;
  if (await refreshSession()) await qc.invalidateQueries({ queryKey: sessionKey });
  else markSignedOut(qc);
}

/**
 * Keeps the session alive: refreshes ~60 s before it expires (and on return to a sleeping
 * tab), and drops it when a refresh fails anywhere in the app. Mount once.
 */
export function useSessionKeeper(): void {
  const qc = useQueryClient();
  const expiresAt = useSession().session?.expires_at;

  useEffect(() => {
    setSignedOutHandler(() => markSignedOut(qc));
    // The server wants aal2: the fresh session says next_aal aal2, and the guards challenge.
    setStepUpHandler(() => void qc.invalidateQueries({ queryKey: sessionKey }));
    return () => {
      setSignedOutHandler(null);
      setStepUpHandler(null);
    };
  }, [qc]);

  useEffect(() => {
    if (!expiresAt) return;
    const due = () => expiresAt * 1000 - REFRESH_LEAD_MS - Date.now();
    const timer = setTimeout(() => void refreshNow(qc), Math.min(Math.max(due(), 0), MAX_TIMER_MS));
    // Timers are throttled in background tabs; check again when the tab comes back.
    const onVisible = () => {
      if (document.visibilityState === 'visible' && due() <= 0) void refreshNow(qc);
    };
    document.addEventListener('visibilitychange', onVisible);
    // A refresh skipped offline is done when the network is back.
    const onOnline = () => due() <= 0 && void refreshNow(qc);
    window.addEventListener('online', onOnline);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
    };
  }, [expiresAt, qc]);
}

function toSessionInfo(s: Partial<AuthSession> | undefined): SessionInfo | null {
  if (!s?.user || !s.expires_at || !s.aal || !s.next_aal || s.returning === undefined) return null;
  return {
    user: s.user,
    aal: s.aal,
    next_aal: s.next_aal,
    returning: s.returning,
    expires_at: s.expires_at,
  };
}

async function adoptSession(qc: QueryClient, res: Partial<AuthSession>) {
  const info = toSessionInfo(res);
  if (info) qc.setQueryData(sessionKey, info);
  else await qc.fetchQuery({ queryKey: sessionKey, queryFn: fetchSession, staleTime: 0 });
}

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SignInBody) => api(authApi.signIn, { body }),
    onSuccess: (res) => adoptSession(qc, res),
  });
}

export function useSignUp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SignUpBody) => api(authApi.signUp, { body }),
    onSuccess: (res) => adoptSession(qc, res),
  });
}

/**
 * Sets a new password with a mailed link's token. The server ended every session of the
 * account and answers with a new one, which this adopts: the person is signed in.
 */
export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => api(authApi.resetPassword, { body }),
    onSuccess: (res) => {
      // Whatever this browser held belonged to a session that no longer exists.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      return adoptSession(qc, res);
    },
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(authApi.signOut),
    // Signing out locally must succeed even if the server call fails.
    onSettled: () => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      markSignedOut(qc);
    },
  });
}
