import { createRequire } from 'node:module';
import type { LiveServerMessage } from '../../src/contracts/notifications.contract.ts';
import { NOTIFICATIONS_LIVE_PATH } from '../../src/contracts/notifications.contract.ts';
import type { App } from '../../src/server/app.ts';
import type { ModuleContext } from '../../src/server/module-context.ts';
import {
  createNotificationsModule,
  type NotificationsModule,
} from '../../src/server/modules/notifications/notifications.module.ts';
import type { TestContext } from '../helpers/test-app.ts';

/** The part of a `ws` client socket the tests use (the package ships no types). */
export type WsClient = {
  readyState: number;
  send(data: string | Buffer, cb?: (error?: Error) => void): void;
  close(code?: number): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): WsClient;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): WsClient;
  on(event: 'open' | 'error' | 'unexpected-response', listener: (...args: any[]) => void): WsClient;
};

const require = createRequire(import.meta.url);
/** The `ws` client, for sockets to a real listening server (another process). */
export const WebSocketClient = require('ws') as new (
  url: string,
  options?: { headers?: Record<string, string>; maxPayload?: number },
) => WsClient;

/**
 * A live socket as a test sees it: every message it received, in order, and how it closed.
 * `next` waits for the first message (from `from` on) that satisfies `match`.
 */
export class LiveClient {
  readonly messages: LiveServerMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WsClient) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as LiveServerMessage);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  async next<T extends LiveServerMessage>(
    match: (m: LiveServerMessage) => m is T,
    ms = 5_000,
    from = 0,
  ): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) before the message`);
      const left = until - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a live message');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves with the close code once the server has closed the socket. */
  async closedWith(ms = 5_000): Promise<number> {
    const until = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > until) throw new Error('the socket stayed open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, until - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed.code;
  }

  /** A notification message about `id`. */
  static about(id: string) {
    return (m: LiveServerMessage): m is Extract<LiveServerMessage, { type: 'notification' }> =>
      m.type === 'notification' && m.notification.id === id;
  }

  static titled(title: string) {
    return (m: LiveServerMessage): m is Extract<LiveServerMessage, { type: 'notification' }> =>
      m.type === 'notification' && m.notification.title === title;
  }
}

export const PAGE_ORIGIN = 'http://localhost:3000';

/** A socket opened through `app.injectWS` (no network), as a browser on `origin` would. */
export async function openLive(
  app: App,
  headers: Record<string, string>,
  origin: string | null = PAGE_ORIGIN,
): Promise<LiveClient> {
  const socket = (await app.injectWS(NOTIFICATIONS_LIVE_PATH, {
    headers: origin ? { ...headers, origin } : headers,
  })) as unknown as WsClient;
  return new LiveClient(socket);
}

/** The notifications module's public API on the test app's database (as other modules call it). */
export function notificationsApi(ctx: TestContext): NotificationsModule {
  const quiet = { warn() {}, error() {}, info() {}, debug() {} };
  return createNotificationsModule(
    {
      database: ctx.db.database,
      clock: ctx.clock,
      log: quiet,
    } as unknown as ModuleContext,
    // Its plugin (live sockets, the only reader of sessions) is not registered here.
    {
      auth: { openSessionsAmong: async (ids) => ids },
      settings: { publicUrl: ctx.env.publicUrl, dev: false, messageBudget: null },
    },
  );
}
