import { describe, expect, it } from 'vitest';
import type { EpisodeProgressBody } from '@/contracts/podcasts.contract.ts';
import {
  EpisodeProgressReporter,
  type EpisodeProgressApi,
  type EpisodeProgressSaved,
  type SeekTimer,
} from './episode-progress.ts';

const EP = { id: 'ep-1', kind: 'episode', podcastId: 'show-1' };
const OTHER = { id: 'ep-2', kind: 'episode', podcastId: 'show-1' };
const SONG = { id: 'song-1', kind: 'song' };
const flush = () => new Promise((r) => setTimeout(r, 0));

function fakeApi(opts: { failFirst?: boolean; slowFirst?: () => Promise<void> } = {}) {
  const sent: Array<[string, EpisodeProgressBody]> = [];
  let calls = 0;
  const api: EpisodeProgressApi = {
    save: async (id, body) => {
      calls += 1;
      if (calls === 1 && opts.slowFirst) await opts.slowFirst();
      if (calls === 1 && opts.failFirst) throw new Error('down');
      sent.push([id, body]);
    },
  };
  return { api, sent };
}

function reporter(api: EpisodeProgressApi) {
  const saved: EpisodeProgressSaved[] = [];
  const logged: string[] = [];
  const r = new EpisodeProgressReporter(
    api,
    (s) => saved.push(s),
    (m) => logged.push(m),
  );
  return { r, saved, logged };
}

describe('EpisodeProgressReporter', () => {
  it('saves where the listener is, only once it moved, and tells what was saved', async () => {
    const { api, sent } = fakeApi();
    const { r, saved } = reporter(api);
    r.begin(EP, 0);
    r.report(); // nothing heard yet
    r.moved(14.2);
    r.moved(15.5);
    r.report();
    r.report(); // same place: no second request
    await flush();
    expect(sent).toEqual([['ep-1', { position: 15.5 }]]);
    expect(saved).toEqual([
      { episodeId: 'ep-1', podcastId: 'show-1', position: 15.5, completed: false },
    ]);
  });

  it('a resumed start counts from where it resumed', async () => {
    const { api, sent } = fakeApi();
    const { r } = reporter(api);
    r.begin(EP, 120);
    r.moved(120.4);
    r.report(); // under a second from the resume point
    r.moved(135);
    r.report();
    await flush();
    expect(sent).toEqual([['ep-1', { position: 135 }]]);
  });

  it('the end is saved as completed at the duration, and nothing more for that start', async () => {
    const { api, sent } = fakeApi();
    const { r, saved } = reporter(api);
    r.begin(EP, 0);
    r.moved(58.9);
    r.ended(60);
    r.finish();
    r.report();
    await flush();
    expect(sent).toEqual([['ep-1', { position: 60, completed: true }]]);
    expect(saved.at(-1)?.completed).toBe(true);
  });

  it('another item starting saves the episode before it; songs are not tracked', async () => {
    const { api, sent } = fakeApi();
    const { r } = reporter(api);
    r.begin(EP, 0);
    r.moved(42);
    r.begin(SONG, 0);
    expect(r.episodeId).toBeNull();
    r.moved(10);
    r.report();
    r.ended(200);
    r.begin(OTHER, 5);
    r.moved(31);
    r.finish();
    await flush();
    expect(sent).toEqual([
      ['ep-1', { position: 42 }],
      ['ep-2', { position: 31 }],
    ]);
  });

  it('saves go one at a time, in order, and a failure is only logged', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { api, sent } = fakeApi({ slowFirst: () => gate, failFirst: true });
    const { r, saved, logged } = reporter(api);
    r.begin(EP, 0);
    r.moved(15);
    r.report();
    r.moved(16.25);
    r.report();
    await flush();
    expect(sent).toEqual([]); // the second waits for the first
    release();
    await flush();
    await flush();
    expect(logged).toEqual(['Episode progress was not saved']);
    expect(sent).toEqual([['ep-1', { position: 16.25 }]]);
    expect(saved.map((s) => s.position)).toEqual([16.25]);
  });

  it("the server's answer says whether the episode now counts as played", async () => {
    const api: EpisodeProgressApi = {
      save: async (_id, body) => ({ position: body.position, completed: body.position > 1770 }),
    };
    const { r, saved } = reporter(api);
    r.begin(EP, 1700);
    r.moved(1780);
    r.report();
    await flush();
    expect(saved).toEqual([
      { episodeId: 'ep-1', podcastId: 'show-1', position: 1780, completed: true },
    ]);
  });

  it('positions are kept to the contract: milliseconds, never negative, at most a day', async () => {
    const { api, sent } = fakeApi();
    const { r } = reporter(api);
    r.begin(EP, 0);
    r.moved(12.34567);
    r.report();
    r.moved(Number.NaN);
    r.report();
    r.moved(1e9);
    r.report();
    await flush();
    expect(sent.map(([, b]) => b.position)).toEqual([12.346, 0, 86_400]);
  });
});

function fakeTimer() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timer: SeekTimer = {
    set: (run) => {
      next += 1;
      pending.set(next, run);
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    const runs = [...pending.values()];
    pending.clear();
    for (const run of runs) run();
  };
  return { timer, pending, fire };
}

describe('EpisodeProgressReporter after seeks', () => {
  it('a run of seeks saves the position once, where the run ended', async () => {
    const { api, sent } = fakeApi();
    const { timer, pending, fire } = fakeTimer();
    const r = new EpisodeProgressReporter(api, undefined, undefined, timer);
    r.begin(EP, 0);
    r.seeked(10);
    r.seeked(20);
    r.seeked(30);
    expect(pending.size).toBe(1);
    await flush();
    expect(sent).toEqual([]);
    fire();
    await flush();
    expect(sent).toEqual([['ep-1', { position: 30 }]]);
  });

  it('a seek in a song, or after the player went away, saves nothing', async () => {
    const { api, sent } = fakeApi();
    const { timer, pending, fire } = fakeTimer();
    const r = new EpisodeProgressReporter(api, undefined, undefined, timer);
    r.begin(SONG, 0);
    r.seeked(10);
    expect(pending.size).toBe(0);
    r.begin(EP, 0);
    r.seeked(40);
    r.dispose();
    expect(pending.size).toBe(0);
    fire();
    await flush();
    expect(sent).toEqual([]);
  });
});

describe('EpisodeProgressReporter.resumeAt', () => {
  it("an episode resumes where this page saved it, before the item's own point", async () => {
    const { api } = fakeApi();
    const r = new EpisodeProgressReporter(api);
    const item = { ...EP, resumeAt: 100 };
    expect(r.resumeAt(item)).toBe(100);
    r.begin(item, 100);
    r.moved(250);
    r.finish();
    await flush();
    expect(r.resumeAt(item)).toBe(250);
  });

  it('an episode played to the end starts at 0; a song always does', async () => {
    const { api } = fakeApi();
    const r = new EpisodeProgressReporter(api);
    const item = { ...EP, resumeAt: 100 };
    r.begin(item, 100);
    r.ended(1800);
    await flush();
    expect(r.resumeAt(item)).toBe(0);
    expect(r.resumeAt({ ...SONG, resumeAt: 30 })).toBe(0);
  });

  it('a save that failed leaves the resume point as it was', async () => {
    const { api } = fakeApi({ failFirst: true });
    const r = new EpisodeProgressReporter(api, undefined, () => undefined);
    const item = { ...EP, resumeAt: 5 };
    r.begin(item, 5);
    r.moved(90);
    r.report();
    await flush();
    expect(r.resumeAt(item)).toBe(5);
  });
});
