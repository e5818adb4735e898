import { describe, expect, it } from 'vitest';
import { feedAudioOf, type FeedAudioSource } from './feed-audio.ts';

const original = (stored: string, mime: string | null, bytes: number | null = 1000) => ({
  stored,
  bytes,
  mime,
});
const aac = { stored: 'podcasts/r.m4a', bytes: 640 };

describe('the file a feed encloses', () => {
  it('is the AAC rendition once made, whatever the original, with its own size', () => {
    for (const o of [
      original('podcasts/a.wav', 'audio/wav'),
      original('podcasts/a.flac', 'audio/flac'),
      original('podcasts/a.mp3', 'audio/mpeg'),
    ])
      expect(feedAudioOf({ original: o, aac })).toEqual({
        stored: 'podcasts/r.m4a',
        bytes: 640,
        type: 'audio/x-m4a',
      });
  });

  it('is an MP3 or M4A original as it is while the rendition is not made', () => {
    expect(feedAudioOf({ original: original('podcasts/a.mp3', 'audio/mpeg'), aac: null })).toEqual({
      stored: 'podcasts/a.mp3',
      bytes: 1000,
      type: 'audio/mpeg',
    });
    expect(feedAudioOf({ original: original('podcasts/a.m4a', 'audio/mp4'), aac: null })).toEqual({
      stored: 'podcasts/a.m4a',
      bytes: 1000,
      type: 'audio/x-m4a',
    });
    // Older rows: no type recorded, the key's extension says.
    expect(feedAudioOf({ original: original('b.mp3', null, null), aac: null })).toEqual({
      stored: 'b.mp3',
      bytes: null,
      type: 'audio/mpeg',
    });
  });

  it('is never WAV, FLAC, Ogg or WebM: such an episode has no enclosure yet', () => {
    const refused: FeedAudioSource['original'][] = [
      original('podcasts/a.wav', 'audio/wav'),
      original('podcasts/a.flac', 'audio/flac'),
      original('podcasts/a.ogg', 'audio/ogg'),
      original('a.wav', null, null),
      original('a.flac', null, null),
      // A type that says WAV wins over an extension that says otherwise.
      original('podcasts/a.mp3', 'audio/wav'),
    ];
    for (const o of refused) expect(feedAudioOf({ original: o, aac: null }), o.stored).toBeNull();
  });
});
