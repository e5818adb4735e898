import type { Database } from '../db/client.ts';
import type { Log } from '../log.ts';

/*
 * Events between app processes over PostgreSQL LISTEN/NOTIFY (docs/decisions/0021), on PGlite
 * and a server alike. A writer announces with `pg_notify(channel, payload)` in the statement
 * that writes the row, so the event is delivered only if and when its transaction commits; a
 * payload names rows (ids), never carries them (NOTIFY payloads stop at 8000 bytes), and a
 * receiver reads what it needs. Delivery is at most once: a receiver that was not listening
 * (start-up, a lost connection) missed what was said meanwhile, and is told so by `onMissed`.
 */

export type EventChannel = {
  /** Stops listening; events already being handled finish. */
  close(): Promise<void>;
};

export type EventChannelOptions<T> = {
  database: Pick<Database, 'listen'>;
  channel: string;
  /** Turns a payload into an event; null for one that is malformed (logged, dropped). */
  parse(payload: string): T | null;
  onEvent(event: T): Promise<void>;
  /** Events may have been missed: listening was down for a while and is back. */
  onMissed?(): void;
  log: Log;
  /** First wait before retrying a failed first LISTEN; doubles up to 30 s. */
  retryMs?: number;
};

/**
 * Listens on `channel` for as long as the app runs. Each event is handled on its own (a slow
 * one does not hold the next); a handler's failure is logged, never thrown at the listener.
 * If the first LISTEN fails (database briefly unreachable at start), it retries with backoff
 * instead of leaving the process deaf.
 */
export function openEventChannel<T>(options: EventChannelOptions<T>): EventChannel {
  const { database, channel, log } = options;
  let unlisten: (() => Promise<void>) | undefined;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const onPayload = (payload: string) => {
    const event = options.parse(payload);
    if (event === null) {
      log.warn({ channel, payload: payload.slice(0, 200) }, 'events: malformed payload dropped');
      return;
    }
    options.onEvent(event).catch((error: unknown) => {
      log.error({ err: error, channel }, 'events: handling an event failed');
    });
  };

  const start = async () => {
    try {
      const stop = await database.listen(channel, onPayload, () => options.onMissed?.());
      if (closed) await stop();
      else unlisten = stop;
      // Not the first try: what was said while deaf is lost.
      if (attempt > 0 && !closed) options.onMissed?.();
    } catch (error) {
      if (closed) return;
      const wait = Math.min(30_000, (options.retryMs ?? 500) * 2 ** attempt);
      attempt += 1;
      log.warn({ err: error, channel, retryInMs: wait }, 'events: cannot listen yet');
      timer = setTimeout(() => void start(), wait);
      timer.unref();
    }
  };
  const started = start();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await started;
      await unlisten?.().catch(() => {});
      unlisten = undefined;
    },
  };
}

/** A JSON payload, or null when it is not JSON. */
export function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}
