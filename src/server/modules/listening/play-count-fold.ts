import type { Log } from '../../log.ts';

export type PlayCountFold = ReturnType<typeof createPlayCountFold>;

/** One kind of pending work folded in batches: answers how many rows it took (≤ batch). */
export type BatchFold = { fold: (batch: number) => Promise<number>; batch: number };

/**
 * Every `intervalMs`, runs each fold until nothing is pending (docs/decisions/0016): plays
 * into songs.play_count, listening_deltas into the listener totals. Every process runs one;
 * concurrent folds are safe (each serialises on its own advisory lock). A failing fold (the
 * database away) is logged once until one succeeds.
 */
export function createPlayCountFold(deps: { folds: BatchFold[]; log: Log; intervalMs: number }) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let failing = false;

  /** Folds until nothing is pending; the number of rows it moved. */
  async function foldAll(): Promise<number> {
    let total = 0;
    for (const { fold, batch } of deps.folds) {
      for (;;) {
        const taken = await fold(batch);
        total += taken;
        if (taken < batch) break;
      }
    }
    return total;
  }

  const tick = () => {
    if (running) return;
    running = foldAll()
      .then((n) => {
        failing = false;
        return n;
      })
      .catch((error: unknown) => {
        if (!failing) deps.log.warn({ err: error }, 'listening fold failed; retrying');
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
