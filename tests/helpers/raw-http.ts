import net from 'node:net';

/**
 * HTTP as bytes on a socket, for tests about the wire itself: bodies cut short, clients that
 * go away, requests Node's parser refuses. `app.inject` cannot produce any of these.
 */

export type RawResponse = {
  status: number;
  statusLine: string;
  headers: Record<string, string>;
  body: string;
};

export type Exchange = {
  /** Everything the server sent before the connection closed or the wait ended. */
  received: Buffer;
  /** The first response in it, or null when none came. */
  response: RawResponse | null;
};

export type Connection = {
  write(chunk: Buffer | string): void;
  /** Destroys the socket, as a client that goes away mid-request does. */
  hangUp(): void;
  /** Resolves once the connection closed (either side) or `timeoutMs` passed. */
  done: Promise<Exchange>;
};

/** A raw connection to `port` on the loopback address. */
export function connect(port: number, { timeoutMs = 5000 } = {}): Connection {
  const socket = net.connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  let finish!: () => void;
  const done = new Promise<Exchange>((resolve) => {
    let over = false;
    finish = () => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(received);
      resolve({ received: all, response: parseResponse(all) });
    };
    const timer = setTimeout(finish, timeoutMs);
  });
  socket.on('data', (d) => received.push(d));
  socket.on('close', () => finish());
  // The server may close while we still write (it refused early): what it sent still counts.
  socket.on('error', () => finish());
  return {
    write: (chunk) => void (socket.destroyed || socket.write(chunk)),
    hangUp: () => finish(),
    done,
  };
}

/** Writes `chunks` in order on a new connection and waits for the server to close it. */
export function exchange(
  port: number,
  chunks: Array<Buffer | string>,
  { timeoutMs = 5000 } = {},
): Promise<Exchange> {
  const connection = connect(port, { timeoutMs });
  for (const chunk of chunks) connection.write(chunk);
  return connection.done;
}

/** Parses one HTTP/1.1 response (Content-Length or chunked body); null when incomplete. */
export function parseResponse(raw: Buffer): RawResponse | null {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = raw.subarray(end + 4);
  let body: Buffer;
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (!size) break;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  } else {
    body = rest.subarray(0, Number(headers['content-length'] ?? rest.length));
  }
  return { status: Number(match[1]), statusLine, headers, body: body.toString('utf8') };
}

/** What Fastify's logger (pino) wrote, one parsed JSON object per line. */
export type LogLine = {
  level: number;
  msg?: string;
  err?: { message?: string };
  [k: string]: unknown;
};

/** pino's numeric levels: 50 is error, 60 fatal. */
export const LOG_ERROR = 50;

/** Logger options that keep every line in memory, for `useTestApp(kind, {}, { logger })`. */
export function captureLog(level = 'info') {
  const lines: LogLine[] = [];
  const logger = {
    level,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  };
  return { lines, logger };
}

/** Polls `check` every 20 ms until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
