import { sql } from 'drizzle-orm';
import type { Log } from '../log.ts';
import type { Db } from './client.ts';

/*
 * A database that cannot be reached is an outage of the service, not a fault of the request
 * nor a signed-out caller: requests that need it answer 503 service_unavailable, the log says
 * so once when it starts and once when it ends, and the readiness check reports it.
 */

// SQLSTATEs of a database the server cannot use right now: class 08 (connection exception),
// shutdown / crash / not yet accepting (57P01–57P03), too many connections, the database gone
// (renamed or dropped) or closed to connections (ALLOW_CONNECTIONS false).
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
// The socket or the pool gave up (node-postgres, pg-pool), or the embedded engine is closed.
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end on the pool|PGlite is closed|database ".*" is not currently accepting connections)$/;

/** Whether `error`, or one it wraps (Drizzle puts the driver's in `cause`), says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === 'object' && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') && code.length === 5) return true;
    if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNO.has(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    // AggregateError (a host name with several addresses, each refused).
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

export type DatabaseHealth = {
  /** A request or worker met `error`; true when it is an outage (then reported, once). */
  failed(error: unknown): boolean;
  /** Runs a trivial query now; true when the database answered (an outage then ends). */
  check(): Promise<boolean>;
  /** Whether an outage is going on, as last seen. */
  readonly down: boolean;
  /** Stops the probe that looks for the end of an outage. */
  stop(): void;
};

/** The cheapest question the database answers. */
export const pingDatabase = (db: Db) => () => db.execute(sql`select 1`);

export type DatabaseHealthOptions = {
  /** `select 1`, or whatever proves the database answers; rejects when it does not. */
  ping(): Promise<unknown>;
  log: Log;
  /** How long a check may take before it counts as down (ms). */
  timeoutMs?: number;
  /** First wait between probes during an outage (ms); doubles up to `maxProbeMs`. */
  probeMs?: number;
  maxProbeMs?: number;
  /** Called when an outage ends (workers that backed off may look again at once). */
  onRecovered?: () => void;
};

/**
 * The process's one view of whether its database is there. An outage starts at the first
 * request (or check) that fails to reach it and ends at the first check that succeeds; while
 * it lasts a probe checks with backoff, so its end is logged even when nobody calls.
 */
export function createDatabaseHealth(options: DatabaseHealthOptions): DatabaseHealth {
  const { log } = options;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const firstProbeMs = options.probeMs ?? 500;
  const maxProbeMs = options.maxProbeMs ?? 5_000;
  let down = false;
  let since = 0;
  let probe: NodeJS.Timeout | undefined;
  let probeMs = firstProbeMs;
  let stopped = false;

  function wentDown(error: unknown) {
    if (down) return;
    down = true;
    since = Date.now();
    log.error({ err: error }, 'database unavailable: requests that need it answer 503');
    probeMs = firstProbeMs;
    scheduleProbe();
  }

  function cameBack() {
    if (!down) return;
    down = false;
    clearTimeout(probe);
    probe = undefined;
    log.info({ downMs: Date.now() - since }, 'database available again');
    options.onRecovered?.();
  }

  function scheduleProbe() {
    if (stopped || probe) return;
    probe = setTimeout(() => {
      probe = undefined;
      void check().then((ok) => {
        if (ok || !down) return;
        probeMs = Math.min(maxProbeMs, probeMs * 2);
        scheduleProbe();
      });
    }, probeMs);
    probe.unref();
  }

  async function check(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        options.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the database did not answer in time')),
            timeoutMs,
          );
        }),
      ]);
      cameBack();
      return true;
    } catch (error) {
      // Any failure of a trivial query means the database cannot serve.
      wentDown(error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    failed(error) {
      if (!isDatabaseUnavailable(error)) return false;
      wentDown(error);
      return true;
    },
    check,
    get down() {
      return down;
    },
    stop() {
      stopped = true;
      clearTimeout(probe);
      probe = undefined;
    },
  };
}
