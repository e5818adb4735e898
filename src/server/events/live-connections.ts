/*
 * The live sockets this process holds, by user (docs/decisions/0021). Events reach a process
 * through the event channel; this registry hands them to that user's open sockets here (a
 * user with several tabs has several). It also keeps the sockets honest: a heartbeat ends
 * connections whose peer vanished, a socket closes when the access token it was opened with
 * expires (the client reconnects with its refreshed cookie) or at once when its session ends
 * (closeSession), frames that are not JSON close it, a socket that sends faster than its
 * message budget is closed, and a user holds a bounded number.
 */

/** What the registry needs of a `ws` WebSocket (structural, so tests can pass a fake). */
export type LiveSocket = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'pong', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
};

export const SOCKET_OPEN = 1;

/** Close codes (RFC 6455 and this app's own, 4000–4999). */
export const closeCodes = {
  unsupportedData: 1003,
  policyViolation: 1008,
  sessionExpired: 4001,
  tooManyConnections: 4008,
} as const;

/**
 * A token bucket per socket: `perSecond` messages refill it, it holds `burst`. A client pings
 * a few times a minute; one that floods would keep the event loop answering it.
 */
export type MessageBudget = { perSecond: number; burst: number };

export const defaultMessageBudget: MessageBudget = { perSecond: 20, burst: 50 };

export type LiveConnectionsOptions = {
  /** Interval of the heartbeat: a socket that has not answered the previous ping is ended. */
  heartbeatMs?: number;
  /** Sockets one user may hold in this process; the oldest is closed beyond. */
  maxPerUser?: number;
  /** Messages a socket may send; null: no limit. */
  messageBudget?: MessageBudget | null;
  now?: () => number;
  /** Elapsed real time for the message budget (ms), whatever the app's clock says. */
  elapsed?: () => number;
};

export type AttachOptions = {
  userId: string;
  /** The session whose access token opened the socket: its end closes the socket. */
  sessionId: string;
  /** When the access token the socket was opened with expires (ms since the epoch). */
  expiresAt: number;
  /** A JSON message from the client (already parsed). */
  onMessage?(message: unknown, socket: LiveSocket): void;
};

type Entry = {
  socket: LiveSocket;
  userId: string;
  sessionId: string;
  alive: boolean;
  expiry?: NodeJS.Timeout;
  /** Messages the socket may still send now, and when the bucket was last refilled. */
  tokens: number;
  refilledAt: number;
};

const MAX_TIMER_MS = 2_147_483_647;

export type LiveConnections = ReturnType<typeof createLiveConnections>;

export function createLiveConnections(options: LiveConnectionsOptions = {}) {
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxPerUser = options.maxPerUser ?? 10;
  const now = options.now ?? Date.now;
  const budget = options.messageBudget === undefined ? defaultMessageBudget : options.messageBudget;
  const elapsed = options.elapsed ?? (() => performance.now());
  const byUser = new Map<string, Entry[]>();
  const entries = new Map<LiveSocket, Entry>();
  let heartbeat: NodeJS.Timeout | undefined;

  function beat() {
    for (const entry of entries.values()) {
      if (!entry.alive) {
        entry.socket.terminate();
        remove(entry);
        continue;
      }
      entry.alive = false;
      try {
        entry.socket.ping();
      } catch {
        // A socket closing right now: its 'close' removes it.
      }
    }
  }

  function remove(entry: Entry) {
    if (!entries.delete(entry.socket)) return;
    clearTimeout(entry.expiry);
    const list = byUser.get(entry.userId)?.filter((e) => e !== entry) ?? [];
    if (list.length > 0) byUser.set(entry.userId, list);
    else byUser.delete(entry.userId);
    if (entries.size === 0) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  /** Takes one message from the socket's bucket; false when it is empty (the socket floods). */
  function spend(entry: Entry): boolean {
    if (!budget) return true;
    const at = elapsed();
    const refill = ((at - entry.refilledAt) / 1000) * budget.perSecond;
    entry.tokens = Math.min(budget.burst, entry.tokens + refill);
    entry.refilledAt = at;
    if (entry.tokens < 1) return false;
    entry.tokens -= 1;
    return true;
  }

  function send(entry: Entry, data: string): boolean {
    if (entry.socket.readyState !== SOCKET_OPEN) return false;
    try {
      entry.socket.send(data);
      return true;
    } catch {
      return false;
    }
  }

  return {
    /** Registers an open socket; it is forgotten when it closes. */
    attach(socket: LiveSocket, attach: AttachOptions): void {
      const entry: Entry = {
        socket,
        userId: attach.userId,
        sessionId: attach.sessionId,
        alive: true,
        tokens: budget?.burst ?? 0,
        refilledAt: elapsed(),
      };
      const mine = byUser.get(attach.userId) ?? [];
      while (mine.length >= maxPerUser) {
        const oldest = mine.shift()!;
        oldest.socket.close(closeCodes.tooManyConnections, 'Too many connections');
        entries.delete(oldest.socket);
        clearTimeout(oldest.expiry);
      }
      mine.push(entry);
      byUser.set(attach.userId, mine);
      entries.set(socket, entry);

      const left = attach.expiresAt - now();
      if (left <= 0) {
        socket.close(closeCodes.sessionExpired, 'Session expired');
        remove(entry);
        return;
      }
      entry.expiry = setTimeout(
        () => socket.close(closeCodes.sessionExpired, 'Session expired'),
        Math.min(left, MAX_TIMER_MS),
      );
      entry.expiry.unref?.();

      socket.on('pong', () => (entry.alive = true));
      socket.on('close', () => remove(entry));
      socket.on('message', (data, isBinary) => {
        // Frames that arrive after the close was sent are read no further.
        if (socket.readyState !== SOCKET_OPEN) return;
        entry.alive = true;
        if (!spend(entry)) {
          socket.close(closeCodes.policyViolation, 'Too many messages');
          return remove(entry);
        }
        if (isBinary) return socket.close(closeCodes.unsupportedData, 'Text frames only');
        let message: unknown;
        try {
          message = JSON.parse(String(data));
        } catch {
          return socket.close(closeCodes.policyViolation, 'Invalid JSON');
        }
        attach.onMessage?.(message, socket);
      });

      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref?.();
      }
    },

    /**
     * Closes every socket here opened by `sessionId` (signed out, revoked), as an expired
     * token would; how many. Rare enough to look through all sockets.
     */
    closeSession(sessionId: string): number {
      let closed = 0;
      for (const entry of [...entries.values()]) {
        if (entry.sessionId !== sessionId) continue;
        entry.socket.close(closeCodes.sessionExpired, 'Session ended');
        remove(entry);
        closed += 1;
      }
      return closed;
    },

    /** Sends to every open socket of `userId` here; how many it went to. */
    sendTo(userId: string, data: string): number {
      let sent = 0;
      for (const entry of byUser.get(userId) ?? []) if (send(entry, data)) sent += 1;
      return sent;
    },

    broadcast(data: string): number {
      let sent = 0;
      for (const entry of entries.values()) if (send(entry, data)) sent += 1;
      return sent;
    },

    has(userId: string): boolean {
      return byUser.has(userId);
    },

    /** The sessions that opened the sockets here, each once. */
    sessions(): string[] {
      return [...new Set([...entries.values()].map((e) => e.sessionId))];
    },

    /** Users with at least one socket here. */
    users(): string[] {
      return [...byUser.keys()];
    },

    size(): number {
      return entries.size;
    },

    /** Forgets every socket and stops the timers (the server closes the sockets themselves). */
    stop(): void {
      for (const entry of [...entries.values()]) remove(entry);
      clearInterval(heartbeat);
      heartbeat = undefined;
    },
  };
}
