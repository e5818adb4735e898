import { describe, expect, it } from 'vitest';
import { trackOf, type TrackSettings } from './engine-track.ts';
import type { PlayerItem } from './use-player.ts';

const OPUS = 'audio/webm; codecs=opus';

const song: PlayerItem = {
  id: 's1',
  title: 'Song',
  audioUrl: '/media/audio/s1.flac',
  podcastTitle: 'Artist',
  coverArt: null,
  media: {
    status: 'ready',
    original: '/media/audio/s1.flac',
    renditions: [
      { url: '/r/s1-96.webm', mime: OPUS, codec: 'opus', bitrate_kbps: 96, bytes: 1, duration: 3 },
      {
        url: '/r/s1-160.webm',
        mime: OPUS,
        codec: 'opus',
        bitrate_kbps: 160,
        bytes: 1,
        duration: 3,
      },
    ],
    gainDb: -6,
  },
  kind: 'song',
};

const settings = (over: Partial<TrackSettings> = {}): TrackSettings => ({
  quality: 'normal',
  normalization: true,
  rate: 1.5,
  canPlayType: (mime) => (mime === OPUS ? 'probably' : ''),
  ...over,
});

describe('trackOf', () => {
  it('streams the rendition of the quality chosen, with the measured gain; songs at 1×', () => {
    const track = trackOf(song, settings());
    expect(track).toMatchObject({ id: 's1', url: '/r/s1-160.webm', rate: 1 });
    expect(track.gain).toBeCloseTo(10 ** (-6 / 20));
    expect(trackOf(song, settings({ quality: 'data-saver' })).url).toBe('/r/s1-96.webm');
  });

  it('normalisation off plays the file as it is', () => {
    expect(trackOf(song, settings({ normalization: false })).gain).toBe(1);
  });

  it("an episode plays at the listener's speed; an item without media plays its URL", () => {
    const episode: PlayerItem = { ...song, id: 'e1', kind: 'episode', media: null };
    expect(trackOf(episode, settings())).toEqual({
      id: 'e1',
      url: '/media/audio/s1.flac',
      gain: 1,
      rate: 1.5,
    });
  });
});

describe('trackOf with downloads', () => {
  it('plays the downloaded copy when there is one, with the song’s gain', () => {
    const track = trackOf(song, settings({ downloaded: () => '/offline/song/s1/audio' }));
    expect(track.url).toBe('/offline/song/s1/audio');
    expect(track.gain).toBe(trackOf(song, settings()).gain);
  });

  it('streams as before when the item is not downloaded (or may not play: a lapse)', () => {
    expect(trackOf(song, settings({ downloaded: () => null })).url).toBe('/r/s1-160.webm');
  });
});
