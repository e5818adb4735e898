import { describe, expect, it } from 'vitest';
import type { SongRenditionDto } from '@/contracts/songs.contract.ts';
import {
  chooseAudioSource,
  originalMime,
  type CanPlay,
  type CanPlayType,
  type PlayerMedia,
} from './rendition-choice.ts';

const OPUS = 'audio/webm; codecs=opus';
const AAC = 'audio/mp4; codecs=mp4a.40.2';

const rendition = (codec: 'opus' | 'aac', kbps: number): SongRenditionDto => ({
  url: `/media/renditions/song-${kbps}.${codec === 'opus' ? 'webm' : 'm4a'}?e=1&s=x`,
  mime: codec === 'opus' ? OPUS : AAC,
  codec,
  bitrate_kbps: kbps,
  bytes: kbps * 1000,
  duration: 3,
});

const opus96 = rendition('opus', 96);
const aac128 = rendition('aac', 128);
const opus160 = rendition('opus', 160);

const media = (over: Partial<PlayerMedia> = {}): PlayerMedia => ({
  status: 'ready',
  original: '/media/audio/song.flac?e=1&s=x',
  renditions: [opus96, aac128, opus160],
  gainDb: -3,
  ...over,
});

/** A browser that answers for these MIME types only. */
const browser =
  (answers: Record<string, CanPlay>): CanPlayType =>
  (mime) =>
    answers[mime] ?? '';

const chrome = browser({ [OPUS]: 'probably', [AAC]: 'probably', 'audio/flac': 'probably' });
// Safari before Opus-in-WebM, and no FLAC either.
const noOpusNoFlac = browser({ [AAC]: 'maybe' });

describe('chooseAudioSource', () => {
  it('Normal takes the best rendition at or under 160 kbit/s, Data saver at or under 96', () => {
    expect(chooseAudioSource(media(), 'normal', chrome).url).toBe(opus160.url);
    expect(chooseAudioSource(media(), 'data-saver', chrome).url).toBe(opus96.url);
    expect(chooseAudioSource(media(), 'data-saver', chrome).rendition).toBe(opus96);
  });

  it('High plays the original when the browser can play it', () => {
    const high = chooseAudioSource(media(), 'high', chrome);
    expect(high).toEqual({ url: '/media/audio/song.flac?e=1&s=x', rendition: null });
  });

  it('High takes the best playable rendition when the original cannot be played here', () => {
    expect(chooseAudioSource(media(), 'high', noOpusNoFlac).url).toBe(aac128.url);
    const noFlac = browser({ [OPUS]: 'probably', [AAC]: 'probably' });
    expect(chooseAudioSource(media(), 'high', noFlac).url).toBe(opus160.url);
  });

  it('skips what canPlayType refuses: without Opus, both qualities get the AAC rendition', () => {
    expect(chooseAudioSource(media(), 'normal', noOpusNoFlac).url).toBe(aac128.url);
    // Nothing at or under 96 is playable: the lightest playable one, not the original.
    expect(chooseAudioSource(media(), 'data-saver', noOpusNoFlac).url).toBe(aac128.url);
  });

  it('at equal bitrates prefers the type the browser is sure of', () => {
    const aac160 = rendition('aac', 160);
    const unsure = browser({ [OPUS]: 'maybe', [AAC]: 'probably' });
    const m = media({ renditions: [opus96, opus160, aac160] });
    expect(chooseAudioSource(m, 'normal', unsure).url).toBe(aac160.url);
    expect(chooseAudioSource(m, 'normal', chrome).url).toBe(opus160.url);
  });

  it('falls back to the original while processing, after a failure, or when nothing plays', () => {
    const original = { url: media().original, rendition: null };
    expect(chooseAudioSource(media({ status: 'processing' }), 'normal', chrome)).toEqual(original);
    expect(chooseAudioSource(media({ status: 'failed' }), 'data-saver', chrome)).toEqual(original);
    expect(chooseAudioSource(media({ renditions: [] }), 'normal', chrome)).toEqual(original);
    expect(chooseAudioSource(media(), 'normal', browser({}))).toEqual(original);
    // An external preview: ready, no renditions, plays as it is.
    const preview = media({ original: 'https://audio.example/p.m4a', renditions: [] });
    expect(chooseAudioSource(preview, 'high', chrome).url).toBe('https://audio.example/p.m4a');
  });
});

describe('originalMime', () => {
  it('reads the stored extension, ignoring the signature query', () => {
    expect(originalMime('/media/audio/a.mp3?e=1&s=x')).toBe('audio/mpeg');
    expect(originalMime('/media/audio/a.WAV')).toBe('audio/wav');
    expect(originalMime('https://cdn.example/audio/a.m4a?x=.flac')).toBe('audio/mp4');
    expect(originalMime('/media/audio/a')).toBeNull();
    expect(originalMime('/media/audio.d/a')).toBeNull();
    expect(originalMime('/media/audio/a.xyz')).toBeNull();
  });

  it('leaves an original of unknown type to the element, even under High', () => {
    const m = media({ original: '/media/audio/blob' });
    expect(chooseAudioSource(m, 'high', noOpusNoFlac).url).toBe('/media/audio/blob');
  });
});
