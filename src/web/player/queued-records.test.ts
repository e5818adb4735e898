import { describe, expect, it, vi } from 'vitest';
import type { KeyedStore } from '@/web/lib/offline/record-queue-store.ts';
import { QueuedRecords, type QueuedPlay, type QueuedRecord } from './queued-records.ts';

const SONG = { id: '11111111-1111-4111-8111-111111111111', kind: 'song' as const };

function memoryStore(): KeyedStore<QueuedRecord> & { map: Map<string, QueuedRecord> } {
  const map = new Map<string, QueuedRecord>();
  return {
    map,
    put: async (v) => void map.set(v.key, structuredClone(v)),
    get: async (k) => structuredClone(map.get(k)),
    all: async () => [...map.values()].map((v) => structuredClone(v)),
    delete: async (k) => void map.delete(k),
  };
}

const unreachable = Object.assign(new Error('offline'), { unreachable: true });

function setup({ offline = true, user = 'u1' } = {}) {
  const state = { offline, user: user as string | null };
  const store = memoryStore();
  const online = {
    start: vi.fn(async () => ({ id: 'server-play' })),
    report: vi.fn(async () => ({})),
  };
  const sendPlay = vi.fn(async (_play: QueuedPlay) => ({}));
  let n = 0;
  const queue = new QueuedRecords({
    online,
    sendPlay,
    store,
    isOffline: () => state.offline,
    userId: () => state.user,
    unreachable: (e) => (e as { unreachable?: boolean }).unreachable === true,
    newId: () => `id-${++n}`,
    now: () => new Date('2026-01-01T10:00:00Z'),
  });
  return { state, store, online, sendPlay, queue };
}

describe('QueuedRecords', () => {
  it('online, a start and its reports go to the server as before', async () => {
    const { queue, online, store } = setup({ offline: false });
    expect(await queue.start(SONG)).toEqual({ id: 'server-play' });
    await queue.report('server-play', 5000);
    expect(online.report).toHaveBeenCalledWith('server-play', 5000);
    expect(store.map.size).toBe(0);
  });

  it('offline, a start is kept with its heard time, and sent once the network is back', async () => {
    const { queue, online, store, sendPlay, state } = setup();
    const { id } = await queue.start(SONG);
    expect(id).toBe('queued:id-1');
    expect(online.start).not.toHaveBeenCalled();
    await queue.report(id, 4000);
    await queue.report(id, 3000); // a lower report does not lower it
    await queue.flush(); // still offline: nothing sent
    expect(sendPlay).not.toHaveBeenCalled();
    state.offline = false;
    await queue.flush();
    expect(sendPlay).toHaveBeenCalledTimes(1);
    expect(sendPlay.mock.calls[0]![0]).toMatchObject({
      key: 'id-1',
      item: SONG,
      startedAt: '2026-01-01T10:00:00.000Z',
      listenedMs: 4000,
    });
    expect(store.map.size).toBe(0);
    // Reported after it was sent: the server knows it under the device's id.
    await queue.report(id, 9000);
    expect(online.report).toHaveBeenCalledWith('id-1', 9000);
  });

  it('a send that gets no answer keeps the play for the next flush (the server counts it once)', async () => {
    const { queue, sendPlay, store, state } = setup();
    await queue.start(SONG);
    state.offline = false;
    sendPlay.mockRejectedValueOnce(unreachable);
    await queue.flush();
    expect(store.map.size).toBe(1);
    await queue.flush();
    expect(sendPlay).toHaveBeenCalledTimes(2);
    expect(sendPlay.mock.calls[0]![0].key).toBe(sendPlay.mock.calls[1]![0].key);
    expect(store.map.size).toBe(0);
  });

  it('a refused play is dropped, not retried forever', async () => {
    const { queue, sendPlay, store, state } = setup();
    await queue.start(SONG);
    state.offline = false;
    sendPlay.mockRejectedValueOnce(new Error('400 song_not_found'));
    await queue.flush();
    expect(store.map.size).toBe(0);
  });

  it('a start that fails to reach the server is queued; a report that fails is kept and resent', async () => {
    const { queue, online, store } = setup({ offline: false });
    online.start.mockRejectedValueOnce(unreachable);
    expect((await queue.start(SONG)).id).toBe('queued:id-1');
    online.report.mockRejectedValueOnce(unreachable);
    await queue.report('server-play', 7000);
    expect(store.map.get('report:server-play')).toMatchObject({ listenedMs: 7000 });
    await queue.flush();
    expect(online.report).toHaveBeenLastCalledWith('server-play', 7000);
    expect(store.map.size).toBe(0);
  });

  it("only the signed-in listener's records are sent", async () => {
    const { queue, sendPlay, state, store } = setup();
    await queue.start(SONG);
    state.user = 'u2';
    state.offline = false;
    await queue.flush();
    expect(sendPlay).not.toHaveBeenCalled();
    expect(store.map.size).toBe(1);
  });
});
