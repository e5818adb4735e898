// Where the listener is in an episode, kept on the server so another device
// resumes there: PUT /api/me/episode-progress/{id} every ~15 s of playback, on pause, after a
// seek, at the end (completed) and when another item starts. A failure is only logged and
// playback goes on, as with stream records. It also remembers where episodes were left in this
// page, newer than the items' own resume points. I/O and timers come in, so it is tested
// without a server or a clock.
import type { EpisodeProgressBody } from '@/contracts/podcasts.contract.ts';

export interface EpisodeProgressApi {
  /** The server's answer says whether the episode now counts as played. */
  save(episodeId: string, body: EpisodeProgressBody): Promise<{ completed: boolean } | void>;
}

/** What was saved (completed as the server answered), for the cached episode list. */
export interface EpisodeProgressSaved {
  episodeId: string;
  podcastId: string | undefined;
  position: number;
  completed: boolean;
}

/** How often a playing episode's position is saved. */
export const PROGRESS_EVERY_MS = 15_000;
/** A run of seeks (arrow keys on the scrubber) saves the position once, this long after it. */
export const SEEK_SAVE_DELAY_MS = 1_000;
/** A move smaller than this since the last save is not worth a request. */
const MIN_CHANGE_S = 1;
/** The contract's bound (a day). */
const MAX_POSITION_S = 24 * 3600;

interface Listening {
  episodeId: string;
  podcastId: string | undefined;
  position: number;
  /** The position last sent (or where this start began). */
  saved: number;
}

const seconds = (n: number) =>
  Math.round(Math.min(Math.max(Number.isFinite(n) ? n : 0, 0), MAX_POSITION_S) * 1000) / 1000;

/** The one timer a run of seeks needs (setTimeout in the browser, a fake in tests). */
export interface SeekTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimer: SeekTimer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class EpisodeProgressReporter {
  private listening: Listening | null = null;
  // One save at a time, in order: a pause right after a timed save must land last.
  private chain: Promise<unknown> = Promise.resolve();
  // Where episodes were left in this page (saved), by episode id.
  private readonly leftAt = new Map<string, EpisodeProgressSaved>();
  private seekSave: { handle: unknown } | null = null;

  constructor(
    private readonly api: EpisodeProgressApi,
    private readonly onSaved: (saved: EpisodeProgressSaved) => void = () => undefined,
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.warn(m, e),
    private readonly timer: SeekTimer = browserTimer,
  ) {}

  /** Where an item starts when it is started anew: an episode where it was left (this page's
   * saves first, then the item's own resume point), 0 once played; songs at 0. */
  resumeAt(item: { id: string; kind?: string; resumeAt?: number }): number {
    if (item.kind !== 'episode') return 0;
    const saved = this.leftAt.get(item.id);
    if (saved) return saved.completed ? 0 : saved.position;
    return item.resumeAt ?? 0;
  }

  /** The listener sought to `position`: saved once a run of seeks is over. */
  seeked(position: number): void {
    if (!this.listening) return;
    this.moved(position);
    this.cancelSeekSave();
    const pending: { handle: unknown } = { handle: null };
    pending.handle = this.timer.set(() => {
      if (this.seekSave === pending) this.seekSave = null;
      this.report();
    }, SEEK_SAVE_DELAY_MS);
    this.seekSave = pending;
  }

  /** The page leaves the player: a pending save after seeks is dropped. */
  dispose(): void {
    this.cancelSeekSave();
  }

  private cancelSeekSave() {
    if (this.seekSave) this.timer.clear(this.seekSave.handle);
    this.seekSave = null;
  }

  /** A start of an item at `position`: the episode before is saved; songs are not tracked. */
  begin(item: { id: string; kind?: string; podcastId?: string }, position = 0): void {
    this.finish();
    if (item.kind !== 'episode') return;
    const at = seconds(position);
    this.listening = { episodeId: item.id, podcastId: item.podcastId, position: at, saved: at };
  }

  /** The playing position, or where a seek went. */
  moved(position: number): void {
    if (this.listening) this.listening.position = seconds(position);
  }

  /** Saves the position when it moved since the last save. */
  report(): void {
    const l = this.listening;
    if (!l || Math.abs(l.position - l.saved) < MIN_CHANGE_S) return;
    l.saved = l.position;
    this.send(l, l.position, false);
  }

  /** Played to the end: saved as completed, and the episode is no longer tracked. */
  ended(duration: number): void {
    const l = this.listening;
    if (!l) return;
    this.listening = null;
    this.send(l, duration > 0 ? seconds(duration) : l.position, true);
  }

  /** This start is over (another item, the page going away): last save. */
  finish(): void {
    this.report();
    this.listening = null;
  }

  /** The episode being tracked, if any. */
  get episodeId(): string | null {
    return this.listening?.episodeId ?? null;
  }

  private send(l: Listening, position: number, completed: boolean) {
    const body: EpisodeProgressBody = completed ? { position, completed } : { position };
    const saved = { episodeId: l.episodeId, podcastId: l.podcastId, position, completed };
    this.chain = this.chain.then(() =>
      this.api.save(l.episodeId, body).then(
        // The server's word on completion wins (it also marks an episode heard to near its end).
        (answer) => {
          const heard = { ...saved, completed: answer ? answer.completed : completed };
          this.leftAt.set(heard.episodeId, heard);
          this.onSaved(heard);
        },
        (e: unknown) => this.log('Episode progress was not saved', e),
      ),
    );
  }
}
