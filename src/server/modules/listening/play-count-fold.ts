import type { Log } from '../../log.ts';
import type { PlaysRepository } from './plays.repository.ts';

export type PlayCountFold = ReturnType<typeof createPlayCountFold>;

/**
 * Moves the plays pending in play_count_deltas into songs.play_count every `intervalMs`
 * (docs/decisions/0016). Every process runs one; concurrent folds are safe (each takes rows
 * no other fold holds). A failing fold (the database away) is logged once until one succeeds.
 */
export function createPlayCountFold(deps: {
  plays: Pick<PlaysRepository, 'foldPlayCounts'>;
  log: Log;
  intervalMs: number;
  batch: number;
}) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let failing = false;

  /** Folds until nothing is pending; the number of plays it moved. */
  async function foldAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await deps.plays.foldPlayCounts(deps.batch);
      total += taken;
      if (taken < deps.batch) return total;
    }
  }

  const tick = () => {
    if (running) return;
    running = foldAll()
      .then((n) => {
        failing = false;
        return n;
      })
      .catch((error: unknown) => {
        if (!failing) deps.log.warn({ err: error }, 'play count fold failed; retrying');
        failing = true;
        return 0;
      })
      .finally(() => {
        running = null;
      });
  };

  return {
    foldAll,
    start() {
      timer ??= setInterval(tick, deps.intervalMs);
      timer.unref();
    },
    /** Stops the timer and waits for a fold under way. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
