// Stream records: POST /api/plays when a signed-in listener starts an
// item, then PATCH the milliseconds heard (the total so far) on pause, skip, end and every
// 30 s. A failure is only logged and playback goes on (spec §4, §8). I/O comes in, so the
// bookkeeping is tested without a server.
import {
  clockStopped,
  clockTicked,
  freshClock,
  listenedMs,
  type ListenedClock,
} from './listened-time.ts';

/** What a record names: a song or a podcast episode of Canto's. */
export type RecordedItem = { id: string; kind: 'song' | 'episode' };

export interface StreamRecordApi {
  start(item: RecordedItem): Promise<{ id: string }>;
  report(recordId: string, listenedMs: number): Promise<unknown>;
}

/** How often a playing item's heard time is reported. */
export const REPORT_EVERY_MS = 30_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Only Canto's own songs and episodes have records (recently played lists both): external
 * previews have ids like 'itunes:123', and ads are counted as impressions instead.
 */
export function recordedItem(item: { id: string; kind?: string }): RecordedItem | null {
  const kind = item.kind ?? 'song';
  if ((kind !== 'song' && kind !== 'episode') || !UUID.test(item.id)) return null;
  return { id: item.id, kind };
}
export const recordable = (item: { id: string; kind?: string }): boolean =>
  recordedItem(item) !== null;

interface Play {
  /** The record's id once the server answered; null if it refused (nothing to report). */
  record: Promise<string | null>;
  clock: ListenedClock;
  reported: number;
}

export class StreamRecorder {
  private play: Play | null = null;

  constructor(
    private readonly api: StreamRecordApi,
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.warn(m, e),
  ) {}

  /**
   * A new start of an item at `position` (0, or where a restored item was): the previous
   * play is reported and a record is written.
   */
  begin(item: { id: string; kind?: string }, position = 0): void {
    this.finish();
    const recorded = recordedItem(item);
    if (!recorded) return;
    const record = this.api.start(recorded).then(
      (r) => r.id,
      (e: unknown) => {
        this.log('Stream record failed', e);
        return null;
      },
    );
    this.play = { record, clock: { ...freshClock, lastPosition: position }, reported: 0 };
  }

  /** The playing position (the element's time updates while it plays). */
  ticked(position: number): void {
    if (this.play) this.play.clock = clockTicked(this.play.clock, position);
  }

  /** Paused or sought: no step is counted across the gap. Pausing also reports. */
  stopped(report: boolean): void {
    if (!this.play) return;
    this.play.clock = clockStopped(this.play.clock);
    if (report) this.report();
  }

  /** Reports the heard time when it grew since the last report. */
  report(): void {
    const play = this.play;
    if (!play) return;
    const ms = listenedMs(play.clock);
    if (ms <= play.reported) return;
    play.reported = ms;
    void play.record.then((id) => {
      if (id === null) return;
      return this.api.report(id, ms).catch((e: unknown) => this.log('Listening report failed', e));
    });
  }

  /** The play is over (skip, end, another item, the page going away): last report. */
  finish(): void {
    this.report();
    this.play = null;
  }

  get heardMs(): number {
    return this.play ? listenedMs(this.play.clock) : 0;
  }
}
