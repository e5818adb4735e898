import { describe, expect, it } from 'vitest';
import type { EpisodeProgressSaved } from './episode-progress.ts';
import { PlaybackEvents } from './playback-events.ts';

const SAVED: EpisodeProgressSaved = {
  episodeId: 'ep-1',
  podcastId: 'show-1',
  position: 42,
  completed: false,
};

describe('PlaybackEvents', () => {
  it('hands an event to every listener of its type', () => {
    const events = new PlaybackEvents();
    const a: EpisodeProgressSaved[] = [];
    const b: EpisodeProgressSaved[] = [];
    events.on('episodeProgressSaved', (e) => a.push(e));
    events.on('episodeProgressSaved', (e) => b.push(e));
    events.emit('episodeProgressSaved', SAVED);
    expect(a).toEqual([SAVED]);
    expect(b).toEqual([SAVED]);
  });

  it('a listener that stopped listening hears nothing more', () => {
    const events = new PlaybackEvents();
    const heard: EpisodeProgressSaved[] = [];
    const stop = events.on('episodeProgressSaved', (e) => heard.push(e));
    events.emit('episodeProgressSaved', SAVED);
    stop();
    events.emit('episodeProgressSaved', { ...SAVED, position: 50 });
    expect(heard).toEqual([SAVED]);
  });

  it('a listener that throws is logged and the others still hear the event', () => {
    const logged: string[] = [];
    const events = new PlaybackEvents((m) => logged.push(m));
    const heard: EpisodeProgressSaved[] = [];
    events.on('episodeProgressSaved', () => {
      throw new Error('cache gone');
    });
    events.on('episodeProgressSaved', (e) => heard.push(e));
    expect(() => events.emit('episodeProgressSaved', SAVED)).not.toThrow();
    expect(heard).toEqual([SAVED]);
    expect(logged).toEqual(['A listener of episodeProgressSaved failed']);
  });
});
