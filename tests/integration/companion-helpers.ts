import type { AddressInfo } from 'node:net';
import {
  COMPANION_PATH,
  type CompanionClientEvent,
  type CompanionServerEvent,
} from '../../src/contracts/companion.contract.ts';
import type { TestContext } from '../helpers/test-app.ts';
import { WebSocketClient, type WsClient } from './notifications-helpers.ts';

/** The app listening on a loopback port, for real WebSocket clients; answers its ws:// base. */
export async function listening(ctx: TestContext): Promise<string> {
  if (!ctx.app.server.listening) await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

/**
 * A companion socket as the web panel drives it: every event received in order, how it
 * closed, and `next` to wait for an event of a type (from an index on).
 */
export class CompanionClient {
  readonly events: CompanionServerEvent[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  readonly opened: Promise<void>;

  constructor(readonly socket: WsClient) {
    this.opened = new Promise((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    socket.on('message', (data) => {
      this.events.push(JSON.parse(data.toString()) as CompanionServerEvent);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(base: string, token?: string, headers: Record<string, string> = {}) {
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    return new CompanionClient(
      new WebSocketClient(`${base}${COMPANION_PATH}`, { headers: { ...auth, ...headers } }),
    );
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  send(event: CompanionClientEvent | Record<string, unknown>) {
    this.socket.send(JSON.stringify(event));
  }

  say(text: string) {
    this.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    });
    this.send({ type: 'response.create' });
  }

  answer(callId: string, output: unknown) {
    this.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: callId, output: JSON.stringify(output) },
    });
    this.send({ type: 'response.create' });
  }

  async next<T extends CompanionServerEvent['type']>(
    type: T,
    from = 0,
    ms = 8_000,
  ): Promise<Extract<CompanionServerEvent, { type: T }> & { index: number }> {
    const until = Date.now() + ms;
    for (;;) {
      const index = this.events.findIndex((e, i) => i >= from && e.type === type);
      if (index >= 0)
        return { ...(this.events[index] as Extract<CompanionServerEvent, { type: T }>), index };
      if (this.closed)
        throw new Error(`closed ${this.closed.code} (${this.closed.reason}) before ${type}`);
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${ms} ms: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async closes(ms = 8_000): Promise<{ code: number; reason: string }> {
    const until = Date.now() + ms;
    while (!this.closed) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`still open after ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }
}
