import { describe, expect, it } from 'vitest';
import { tableOperations } from '../../src/contracts/api/route-table.ts';
import { useTestApp } from '../helpers/test-app.ts';

/*
 * The route table (src/contracts/api/, docs/decisions/0025) and the server agree: every entry
 * is a route the app registers, with the same method and path, and every API route the app
 * registers is an entry, but the few listed here with their reason.
 */

/** Registered API routes outside the table, and why. */
const outsideTable: Record<string, string> = {
  'GET /api/me/notifications/live':
    'a WebSocket upgrade, not a request and its answer: its path is NOTIFICATIONS_LIVE_PATH, its messages liveServerMessage and liveClientMessage (ADR 0021)',
  'GET /api/ai/companion':
    'a WebSocket upgrade, not a request and its answer: its path is COMPANION_PATH, its events clientEvent and serverEvent (ADR 0033)',
};
/** Whole prefixes outside the table, and why. */
const outsidePrefixes: Record<string, string> = {
  '/api/docs': 'the OpenAPI document and its viewer, registered by @fastify/swagger-ui',
};

/** The routes the table's paths live in: the API, and the signing keys' well-known address. */
const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/.well-known/');

describe('the route table', () => {
  const ctx = useTestApp('pglite');
  const operations = tableOperations();
  // Fastify adds a HEAD route to every GET; the table speaks of GET (and of `head` routes).
  const registered = () =>
    ctx.app.routePolicies
      .filter((p) => p.method !== 'HEAD')
      .map((p) => `${p.method} ${p.url}`)
      .filter((route) => isApi(route.split(' ')[1]!));

  it('names each operation once', () => {
    const keys = operations.map(({ route }) => `${route.method} ${route.path}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('has every entry registered by the server with its method and path', () => {
    const routes = new Set(registered());
    const missing = operations
      .filter(({ route }) => !routes.has(`${route.method} ${route.path}`))
      .map(({ name, route }) => `${name}: ${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  it('has every API route the server registers, but those listed outside it', () => {
    const inTable = new Set(operations.map(({ route }) => `${route.method} ${route.path}`));
    const unlisted = registered().filter(
      (route) =>
        !inTable.has(route) &&
        !(route in outsideTable) &&
        !Object.keys(outsidePrefixes).some((prefix) => route.split(' ')[1]!.startsWith(prefix)),
    );
    expect(unlisted).toEqual([]);
    // The list stays true: what it names is registered, and not in the table as well.
    for (const route of Object.keys(outsideTable)) {
      expect(registered()).toContain(route);
      expect(inTable.has(route), route).toBe(false);
    }
  });
});
