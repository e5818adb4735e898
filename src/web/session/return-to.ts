// Where /auth sends a visitor once signed in: back to the link they opened (a shared playlist,
// a profile), carried in the navigation state by the guard or a page's "Sign in" link.

/** What a link to /auth carries: the page to come back to, and which form to show first. */
export interface AuthReturnState {
  from?: string;
  tab?: 'sign-in' | 'sign-up';
}

export function authState(from: string, tab?: AuthReturnState['tab']): AuthReturnState {
  return tab ? { from, tab } : { from };
}

/**
 * The path to return to, or `/`: only a path of this app (never `//host`, never /auth). From
 * the navigation state, else `?next=` (a link from a page outside the app, e.g. a visitor's
 * song page).
 */
export function returnTo(state: unknown, search = ''): string {
  const from = (state as AuthReturnState | null)?.from ?? new URLSearchParams(search).get('next');
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return '/';
  if (from === '/auth' || from.startsWith('/auth?')) return '/';
  return from;
}

export function authTab(state: unknown, search = ''): 'sign-in' | 'sign-up' {
  const tab = (state as AuthReturnState | null)?.tab ?? new URLSearchParams(search).get('tab');
  return tab === 'sign-up' ? 'sign-up' : 'sign-in';
}
