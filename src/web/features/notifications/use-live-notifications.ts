// The live notification socket (spec §4: new notifications arrive live; docs/decisions/0021).
// One socket per tab while signed in, authenticated by the session cookie. It reconnects
// with backoff after any loss and catches up by refetching the lists each time it opens, so
// nothing said while it was away is missed (a duplicate of a pushed one is ignored).
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { SessionInfo } from '@/contracts/auth.contract.ts';
import {
  liveCloseCodes,
  liveServerMessage,
  NOTIFICATIONS_LIVE_PATH,
  type NotificationDto,
} from '@/contracts/notifications.contract.ts';
import { refreshSession } from '@/web/lib/api-client.ts';
import { sessionKey } from '@/web/session/use-session.ts';
import { addLiveNotification, notificationsKeys } from './use-notifications.ts';

/** Wait before reconnect attempt `n` (0-based): 1 s doubling to 30 s, with jitter. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, 1_000 * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const PING_EVERY_MS = 25_000;
/** No answer to a ping within this: the connection is dead even if the browser has not noticed. */
const PONG_WITHIN_MS = 10_000;
/** Open at least this long and the next loss starts the backoff over. */
const STABLE_MS = 5_000;

// One id for live toasts: at most one shows, the newest (spec §9).
const LIVE_TOAST_ID = 'notification-live';

function showToast(n: NotificationDto) {
  toast(n.title, { id: LIVE_TOAST_ID, description: n.message || undefined });
}

/** The access cookie is about to expire (a sleeping tab): refresh it before the handshake. */
async function freshCookie(qc: QueryClient) {
  const expiresAt = qc.getQueryData<SessionInfo | null>(sessionKey)?.expires_at ?? 0;
  if (expiresAt * 1000 - Date.now() > 5_000) return;
  if (await refreshSession()) await qc.invalidateQueries({ queryKey: sessionKey });
}

export type LiveStatus = 'connecting' | 'open' | 'closed';

/** Keeps the tab's live socket while `userId` is signed in; says whether it is open. */
export function useLiveNotifications(userId: string | undefined): LiveStatus {
  const qc = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    if (!userId || typeof WebSocket === 'undefined') return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${NOTIFICATIONS_LIVE_PATH}`;
    let socket: WebSocket | null = null;
    let stopped = false;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    let pongDue: ReturnType<typeof setTimeout> | undefined;

    const clearTimers = () => {
      clearInterval(ping);
      clearTimeout(pongDue);
    };

    /** Forgets the socket at once (a dead one may take minutes to report its close). */
    const drop = (ws: WebSocket) => {
      ws.onmessage = ws.onclose = ws.onerror = null;
      // Closing one still connecting makes the browser log an error: close it once open.
      if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
      else {
        ws.onopen = null;
        ws.close();
      }
      if (socket === ws) socket = null;
      clearTimers();
      if (!stopped) setStatus('closed');
    };

    const reconnect = (delay: number, sessionEnded = false) => {
      clearTimeout(retry);
      if (stopped) return;
      retry = setTimeout(() => void reopen(sessionEnded), delay);
    };

    /**
     * Closed because its token or session ended: a refresh tells which. When the session is
     * gone (signed out here or elsewhere) there is nothing to reopen, and the app learns it.
     */
    const reopen = async (sessionEnded: boolean) => {
      if (!sessionEnded) await freshCookie(qc).catch(() => {});
      else if (!(await refreshSession().catch(() => false))) {
        await qc.invalidateQueries({ queryKey: sessionKey });
        return;
      }
      connect();
    };

    const connect = () => {
      if (stopped || socket) return;
      const ws = new WebSocket(url);
      socket = ws;
      setStatus('connecting');
      let openedAt = 0;

      ws.onopen = () => {
        openedAt = Date.now();
        setStatus('open');
        // Catch up on whatever came while away (or before this socket was listening).
        void qc.invalidateQueries({ queryKey: notificationsKeys.all });
        ping = setInterval(() => {
          ws.send(JSON.stringify({ type: 'ping' }));
          clearTimeout(pongDue);
          pongDue = setTimeout(() => {
            drop(ws);
            reconnect(0);
          }, PONG_WITHIN_MS);
        }, PING_EVERY_MS);
      };

      ws.onmessage = (event) => {
        clearTimeout(pongDue);
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = liveServerMessage.safeParse(data);
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === 'notification') {
          addLiveNotification(qc, message.notification);
          showToast(message.notification);
        } else if (message.type === 'resync') {
          void qc.invalidateQueries({ queryKey: notificationsKeys.all });
        }
      };

      ws.onclose = (event) => {
        if (socket !== ws) return;
        socket = null;
        clearTimers();
        setStatus('closed');
        if (openedAt && Date.now() - openedAt >= STABLE_MS) attempt = 0;
        // The token it was opened with expired (or its session ended): the refreshed cookie
        // opens the next one, at once the first time.
        const sessionEnded = event.code === liveCloseCodes.sessionExpired;
        const delay = sessionEnded && attempt === 0 ? 0 : reconnectDelayMs(attempt);
        attempt += 1;
        reconnect(delay, sessionEnded);
      };
    };

    // Back online or back to the tab: try now rather than at the end of a long backoff (or,
    // with an attempt under way, start the backoff over should it fail).
    const retryNow = () => {
      if (stopped) return;
      attempt = 0;
      if (!socket) reconnect(0);
    };
    const onVisible = () => document.visibilityState === 'visible' && retryNow();
    window.addEventListener('online', retryNow);
    document.addEventListener('visibilitychange', onVisible);

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', onVisible);
      // Signed out or gone: the socket goes with the session (the server also closes it when
      // the token it was opened with expires).
      if (socket) drop(socket);
    };
  }, [userId, qc]);

  return status;
}
