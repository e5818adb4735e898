// The last session the server confirmed, kept on the device so the installed app opens with
// the server out of reach (its downloads play; every request the server answers is still checked
// there). Forgotten when the server says signed out, or on sign-out.
import type { SessionInfo } from '@/contracts/auth.contract.ts';

const KEY = 'canto:last-session';

export function rememberSession(session: SessionInfo | null): void {
  try {
    if (session) localStorage.setItem(KEY, JSON.stringify(session));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, full): the app just won't open offline.
  }
}

/**
 * The remembered session, for when the server cannot be reached (navigator.onLine is not
 * trusted: a network that is up but leads nowhere says online).
 */
export function offlineSession(): SessionInfo | null {
  try {
    const stored = localStorage.getItem(KEY);
    return stored ? (JSON.parse(stored) as SessionInfo) : null;
  } catch {
    return null;
  }
}
