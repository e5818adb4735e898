// A start is one go at an item (the machine's playId: a new item, a restart, a repeat). Stream
// records and episode progress both follow starts the same way: a start begins when it first
// plays (not when it is only loaded, as a restored queue is) and the one before finishes as
// another start comes.

/** What the machine says about the start now. */
export interface StartView<I> {
  playId: number;
  playing: boolean;
  current: I | null;
}

/** What follows starts: the stream recorder, the episode progress reporter. */
export interface StartFollowing<I> {
  begin(item: I, position: number): void;
  finish(): void;
}

export class StartFollower<I> {
  private followed: number | null = null;

  constructor(private readonly target: StartFollowing<I>) {}

  /** The machine's start as it is now; `position` is where a beginning start stands. */
  seen(view: StartView<I>, position: () => number): void {
    if (this.followed !== null && this.followed !== view.playId) {
      this.target.finish();
      this.followed = null;
    }
    if (view.playing && view.current && this.followed !== view.playId) {
      this.followed = view.playId;
      this.target.begin(view.current, position());
    }
  }
}

/**
 * Where a start begins when it is not 0: a restored item's saved position, the same spot after
 * its media was fetched again, an episode resumed where it was left.
 */
export class StartPoints {
  private kept: { playId: number; at: number } | null = null;
  private shown: { id: string; playId: number } | null = null;

  /** The start `playId` begins at `at`. */
  keep(playId: number, at: number): void {
    this.kept = { playId, at };
  }

  /** Where the start `playId` begins. */
  of(playId: number): number {
    return this.kept?.playId === playId ? this.kept.at : 0;
  }

  /**
   * The item the player shows now, in the start `playId`. Another item's start resumes it
   * where it was left (`resumeAt`); the same item again (Previous after 3 s, a repeat, the
   * rewind at the end) starts at 0; a kept position comes first.
   */
  showing(item: { id: string } | null, playId: number, resumeAt: () => number): void {
    if (!item) {
      this.shown = null;
      return;
    }
    if (this.shown?.playId === playId) return;
    const another = this.shown?.id !== item.id;
    this.shown = { id: item.id, playId };
    if (!another || this.kept?.playId === playId) return;
    const at = resumeAt();
    if (at > 0) this.kept = { playId, at };
  }
}
