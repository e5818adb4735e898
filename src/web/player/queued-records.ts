// Listening records with the network off: a start that cannot reach the server is kept on the
// device under an id the device gives it, its heard time kept there too, and sent when the
// network is back (PUT /api/offline-plays/{id}, which counts it once however often it is sent);
// a report of a started play that cannot be sent is kept and sent again. Store, API and clock
// come in, so the queue is tested without a browser.
import type { KeyedStore } from '@/web/lib/offline/record-queue-store.ts';
import type { RecordedItem, StreamRecordApi } from './stream-recorder.ts';

/** A play started offline, waiting to be sent. */
export interface QueuedPlay {
  key: string;
  /** Whose play it is: sent only while they are signed in (a shared device). */
  userId: string;
  type: 'play';
  item: RecordedItem;
  startedAt: string;
  listenedMs: number;
}

/** The latest heard time of a play the server knows, waiting to be sent. */
export interface QueuedReport {
  key: string;
  userId: string;
  type: 'report';
  playId: string;
  listenedMs: number;
}

export type QueuedRecord = QueuedPlay | QueuedReport;

/** Record ids the device gave: the recorder reports to them as to any other. */
export const QUEUED_PREFIX = 'queued:';

export interface QueueDeps {
  online: StreamRecordApi;
  sendPlay(play: QueuedPlay): Promise<unknown>;
  store: KeyedStore<QueuedRecord>;
  isOffline(): boolean;
  /** The signed-in listener. */
  userId(): string | null;
  /** True for a failure to reach the server (worth sending again later). */
  unreachable(error: unknown): boolean;
  newId(): string;
  now(): Date;
  log?: (message: string, error: unknown) => void;
}

export class QueuedRecords implements StreamRecordApi {
  private flushing: Promise<void> | null = null;

  constructor(private readonly deps: QueueDeps) {}

  async start(item: RecordedItem): Promise<{ id: string }> {
    if (!this.deps.isOffline()) {
      try {
        return await this.deps.online.start(item);
      } catch (e) {
        if (!this.deps.unreachable(e)) throw e;
      }
    }
    const userId = this.deps.userId();
    if (!userId) throw new Error('No listener to record the play for');
    const key = this.deps.newId();
    await this.deps.store.put({
      key,
      userId,
      type: 'play',
      item,
      startedAt: this.deps.now().toISOString(),
      listenedMs: 0,
    });
    return { id: `${QUEUED_PREFIX}${key}` };
  }

  async report(recordId: string, listenedMs: number): Promise<unknown> {
    if (recordId.startsWith(QUEUED_PREFIX)) {
      const key = recordId.slice(QUEUED_PREFIX.length);
      const play = await this.deps.store.get(key);
      if (play?.type === 'play') {
        await this.deps.store.put({ ...play, listenedMs: Math.max(play.listenedMs, listenedMs) });
        if (!this.deps.isOffline()) void this.flush();
        return;
      }
      // Sent already: the server keeps the play under the device's id.
      return this.report(key, listenedMs);
    }
    if (!this.deps.isOffline()) {
      try {
        return await this.deps.online.report(recordId, listenedMs);
      } catch (e) {
        if (!this.deps.unreachable(e)) throw e;
      }
    }
    const userId = this.deps.userId();
    if (!userId) return;
    const key = `report:${recordId}`;
    const kept = await this.deps.store.get(key);
    await this.deps.store.put({
      key,
      userId,
      type: 'report',
      playId: recordId,
      listenedMs: Math.max(kept?.listenedMs ?? 0, listenedMs),
    });
  }

  /** Sends every waiting record, one at a time; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.sendAll().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendAll(): Promise<void> {
    // Again while a record was raised as it was being sent (at most a few rounds).
    for (let round = 0; round < 3 && (await this.sendRound()); round++);
  }

  /** True when a record stays because it was raised while it was sent. */
  private async sendRound(): Promise<boolean> {
    let raised = false;
    const userId = this.deps.userId();
    const records = (await this.deps.store.all()).filter((r) => r.userId === userId);
    for (const record of records) {
      if (this.deps.isOffline()) return false;
      try {
        if (record.type === 'play') await this.deps.sendPlay(record);
        else await this.deps.online.report(record.playId, record.listenedMs);
      } catch (e) {
        // Unreachable (or a server fault): kept for the next flush. Refused (4xx): dropped.
        if (this.deps.unreachable(e)) return false;
        this.deps.log?.('A queued listening record was refused', e);
      }
      // Removed only if not raised meanwhile: a raised one is sent again.
      const now = await this.deps.store.get(record.key);
      if (now && now.listenedMs === record.listenedMs) await this.deps.store.delete(record.key);
      else if (now) raised = true;
    }
    return raised;
  }
}
