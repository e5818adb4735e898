import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

/*
 * A stand-in for the OpenAI Realtime API at the world's edge: a WebSocket server at
 * /v1/realtime?model=… that checks the Bearer key, answers session.created, records every
 * event it receives, and answers as a test scripts it (or not at all, to be slow).
 */

type Socket = {
  readyState: number;
  send(data: string): void;
  close(code?: number): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
};
type Server = {
  on(
    event: 'connection',
    listener: (socket: Socket, request: http.IncomingMessage) => void,
  ): unknown;
  handleUpgrade(
    request: http.IncomingMessage,
    socket: unknown,
    head: Buffer,
    done: (socket: Socket) => void,
  ): void;
  emit(event: 'connection', socket: Socket, request: http.IncomingMessage): boolean;
  close(): void;
};
const { WebSocketServer } = createRequire(import.meta.url)('ws') as {
  WebSocketServer: new (options: { noServer: true }) => Server;
};

export type FakeRealtime = {
  /** OPENAI_BASE_URL for the app (http://…/v1). */
  baseUrl: string;
  /** Every upgrade it was asked for, with the headers and URL it came with. */
  connections: { url: string; headers: http.IncomingHttpHeaders }[];
  /** Every event received, in order. */
  received: Record<string, unknown>[];
  /** What the fake does with each event it receives (default: nothing more). */
  onEvent: (event: Record<string, unknown>, reply: (event: unknown) => void) => void;
  /** The open sockets, to cut them. */
  sockets: Socket[];
  /** Refuse handshakes with this HTTP status; null: accept. */
  refuse: number | null;
  /** Accept but never upgrade (a hung upstream). */
  hang: boolean;
  close(): Promise<void>;
};

export const FAKE_OPENAI_KEY = 'sk-fake-realtime-key-0123456789';

export async function startFakeRealtime(): Promise<FakeRealtime> {
  const wss = new WebSocketServer({ noServer: true });
  const raw = new Set<import('node:net').Socket>();
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const fake: FakeRealtime = {
    baseUrl: '',
    connections: [],
    received: [],
    onEvent: () => {},
    sockets: [],
    refuse: null,
    hang: false,
    close: async () => {
      for (const s of fake.sockets) s.terminate();
      for (const s of raw) s.destroy();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on(
    'upgrade',
    (request: http.IncomingMessage, socket: import('node:net').Socket, head: Buffer) => {
      fake.connections.push({ url: request.url ?? '', headers: request.headers });
      raw.add(socket);
      socket.on('close', () => raw.delete(socket));
      if (fake.hang) return;
      const url = new URL(request.url ?? '/', 'http://fake');
      const authorized = request.headers.authorization === `Bearer ${FAKE_OPENAI_KEY}`;
      const status =
        fake.refuse ??
        (!authorized
          ? 401
          : url.pathname !== '/v1/realtime' || !url.searchParams.get('model')
            ? 404
            : null);
      if (status !== null) {
        socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
  );
  wss.on('connection', (ws) => {
    fake.sockets.push(ws);
    const reply = (event: unknown) => {
      if (ws.readyState === 1) ws.send(JSON.stringify(event));
    };
    reply({
      type: 'session.created',
      event_id: 'event_1',
      session: { id: 'sess_fake', object: 'realtime.session', model: 'gpt-4o-realtime-preview' },
    });
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as Record<string, unknown>;
      fake.received.push(event);
      if (event.type === 'session.update')
        reply({ type: 'session.updated', event_id: 'event_2', session: { id: 'sess_fake' } });
      fake.onEvent(event, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
