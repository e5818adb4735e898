import { describe, expect, it, vi } from 'vitest';
import { recordable, StreamRecorder, type StreamRecordApi } from './stream-recorder.ts';

const SONG = '3f2b8c1e-9a4d-4c7b-8e21-5d6f7a8b9c0d';
const OTHER = '7a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const flush = () => new Promise((r) => setTimeout(r, 0));

function fakeApi(fail: { start?: boolean; report?: boolean } = {}) {
  const started: string[] = [];
  const reports: Array<[string, number]> = [];
  const api: StreamRecordApi = {
    start: async ({ id, kind }) => {
      if (fail.start) throw new Error('down');
      started.push(kind === 'song' ? id : `${kind} ${id}`);
      return { id: `rec-${started.length}` };
    },
    report: async (id, ms) => {
      if (fail.report) throw new Error('down');
      reports.push([id, ms]);
    },
  };
  return { api, started, reports };
}

describe('StreamRecorder', () => {
  it('writes a record when a song starts and reports the total heard', async () => {
    const { api, started, reports } = fakeApi();
    const r = new StreamRecorder(api);
    r.begin({ id: SONG, kind: 'song' });
    // The element's first time update comes a quarter second in: heard from 0.
    for (const p of [0.25, 0.5, 1, 1.5]) r.ticked(p);
    r.stopped(true); // pause
    for (const p of [1.5, 2, 2.5]) r.ticked(p);
    r.report(); // the 30 s timer
    await flush();
    expect(started).toEqual([SONG]);
    expect(reports).toEqual([
      ['rec-1', 1500],
      ['rec-1', 2500],
    ]);
  });

  it('a start from a restored position counts from there', async () => {
    const { api, reports } = fakeApi();
    const r = new StreamRecorder(api);
    r.begin({ id: SONG, kind: 'song' }, 40);
    r.ticked(40.5);
    r.ticked(41);
    r.finish();
    await flush();
    expect(reports).toEqual([['rec-1', 1000]]);
  });

  it('reports only when more was heard since the last report', async () => {
    const { api, reports } = fakeApi();
    const r = new StreamRecorder(api);
    r.begin({ id: SONG, kind: 'song' });
    r.report(); // nothing heard yet
    r.ticked(0);
    r.ticked(1);
    r.report();
    r.stopped(true); // nothing new since
    await flush();
    expect(reports).toEqual([['rec-1', 1000]]);
  });

  it('a new start finishes the previous play with its last report', async () => {
    const { api, started, reports } = fakeApi();
    const r = new StreamRecorder(api);
    r.begin({ id: SONG, kind: 'song' });
    r.ticked(0);
    r.ticked(2);
    r.begin({ id: OTHER, kind: 'song' }); // a skip
    r.ticked(0);
    r.ticked(1);
    r.finish(); // its end
    await flush();
    expect(started).toEqual([SONG, OTHER]);
    expect(reports).toEqual([
      ['rec-1', 2000],
      ['rec-2', 1000],
    ]);
  });

  it('a failed record is only logged: no reports, nothing thrown, the next play records', async () => {
    const log = vi.fn();
    const down = fakeApi({ start: true });
    const r = new StreamRecorder(down.api, log);
    r.begin({ id: SONG, kind: 'song' });
    r.ticked(0);
    r.ticked(1);
    r.finish();
    await flush();
    expect(down.reports).toEqual([]);
    expect(log).toHaveBeenCalledWith('Stream record failed', expect.any(Error));
  });

  it('a failed report is only logged', async () => {
    const log = vi.fn();
    const r = new StreamRecorder(fakeApi({ report: true }).api, log);
    r.begin({ id: SONG, kind: 'song' });
    r.ticked(0);
    r.ticked(1);
    r.finish();
    await flush();
    await flush();
    expect(log).toHaveBeenCalledWith('Listening report failed', expect.any(Error));
  });

  it('episodes get a record of their own; external previews and ads none', async () => {
    const { api, started } = fakeApi();
    const r = new StreamRecorder(api);
    r.begin({ id: 'itunes:12345', kind: 'song' });
    r.begin({ id: SONG, kind: 'ad' });
    await flush();
    expect(started).toEqual([]);
    r.begin({ id: SONG, kind: 'episode' });
    await flush();
    expect(started).toEqual([`episode ${SONG}`]);
    expect(recordable({ id: SONG, kind: 'song' })).toBe(true);
    expect(recordable({ id: SONG })).toBe(true);
  });
});
