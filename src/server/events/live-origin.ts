/*
 * Which pages may open a live socket. Browsers send cookies with a WebSocket handshake from any
 * site and apply no CORS to it, so a foreign page could otherwise open one with the visitor's
 * session (cross-site WebSocket hijacking): the handshake's Origin must be Canto's own.
 */

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * PUBLIC_URL's origin, plus `extra` (the Vite dev server in development). When PUBLIC_URL is
 * a loopback address, the same scheme and port under the other loopback names too: they
 * reach the same server (`http://127.0.0.1:3000` and `http://localhost:3000`), and a local
 * install is opened either way.
 */
export function liveOrigins(publicUrl: string, extra: readonly string[] = []): Set<string> {
  const url = new URL(publicUrl);
  const origins = new Set([url.origin, ...extra.map((o) => new URL(o).origin)]);
  if (LOOPBACK.includes(url.hostname)) {
    for (const host of LOOPBACK) {
      const alias = new URL(url.origin);
      alias.hostname = host;
      origins.add(alias.origin);
    }
  }
  return origins;
}

/**
 * A handshake without an Origin is not a browser's (browsers always send one) and is
 * allowed: such a client holds its own credentials. A present Origin must be listed; the
 * opaque 'null' of sandboxed frames and files never is.
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  return allowed.has(origin.toLowerCase());
}
