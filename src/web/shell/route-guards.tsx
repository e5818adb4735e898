import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { toast } from 'sonner';
import type { Role } from '@/contracts/auth.contract.ts';
import { useSession } from '@/web/session/use-session.ts';
import { authState, returnTo } from '@/web/session/return-to.ts';
import type { ScreenHandle } from '@/web/shell/screens.ts';
import { FullPageLoading, SessionUnavailable } from '@/web/components/page-status.tsx';

/** The deepest matched route's screen data (title, where signed-out visitors go). */
export function useScreen(): ScreenHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as ScreenHandle | undefined;
    if (handle?.title) return handle;
  }
  return undefined;
}

/**
 * Every screen but /auth needs a session (spec §2); a signed-out visitor goes to /auth and comes
 * back to the link after signing in. A public screen (a song's share link) shows a visitor
 * `visitor` (its page without the shell) instead.
 */
export function RequireSignedIn({
  children,
  visitor,
}: {
  children: ReactNode;
  visitor?: ReactNode;
}) {
  const { status, retry, needsMfa } = useSession();
  const screen = useScreen();
  const { pathname, search } = useLocation();
  const back = authState(`${pathname}${search}`);
  if (status === 'loading') return <FullPageLoading />;
  if (status === 'error') return <SessionUnavailable onRetry={retry} />;
  if (status === 'signed-out') {
    if (screen?.public && visitor) return visitor;
    return <Navigate to={screen?.signedOutTo ?? '/auth'} state={back} replace />;
  }
  // A password alone doesn't open the app for an account with a second factor.
  if (needsMfa) return <Navigate to="/auth" state={back} replace />;
  return children;
}

/**
 * /auth: a signed-in visitor is sent to /. Most visitors here are guests, so the page shows
 * at once instead of after the session probe; the probe's answer redirects the others.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status, needsMfa } = useSession();
  const { state, search } = useLocation();
  // A session that still owes its second factor stays here for the challenge.
  if (status === 'signed-in' && !needsMfa) return <Navigate to={returnTo(state, search)} replace />;
  return children;
}

/** Role screens: others go to / (with the screen's message when the spec gives one). */
export function RequireRole({
  role,
  deniedMessage,
  children,
}: {
  role: Role;
  deniedMessage?: string;
  children?: ReactNode;
}) {
  const { roles, status } = useSession();
  const allowed = roles.includes(role);
  const denied = status === 'signed-in' && !allowed;
  useEffect(() => {
    // A stable id keeps StrictMode's double effect from stacking two toasts.
    if (denied && deniedMessage) toast.error(deniedMessage, { id: `denied:${deniedMessage}` });
  }, [denied, deniedMessage]);
  if (!allowed) return <Navigate to="/" replace />;
  return children ?? <Outlet />;
}
