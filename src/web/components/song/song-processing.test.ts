import { describe, expect, it } from 'vitest';
import { hasOwnProcessing, pollWhileProcessing, PROCESSING_POLL_MS } from './song-processing.ts';

const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const song = (artist_id: string | null, status: 'processing' | 'ready' | 'failed') => ({
  artist_id,
  status,
});

describe('hasOwnProcessing', () => {
  it('is true only for the signed-in artist’s own processing song', () => {
    expect(hasOwnProcessing([song(OTHER, 'ready'), song(ME, 'processing')], ME)).toBe(true);
    expect(hasOwnProcessing([song(ME, 'ready'), song(ME, 'failed')], ME)).toBe(false);
    expect(hasOwnProcessing([song(OTHER, 'processing'), song(null, 'processing')], ME)).toBe(false);
    expect(hasOwnProcessing([song(ME, 'processing')], null)).toBe(false);
    expect(hasOwnProcessing([], ME)).toBe(false);
  });
});

describe('pollWhileProcessing', () => {
  const interval = pollWhileProcessing<{ songs: ReturnType<typeof song>[] }>(ME, (d) => d.songs);
  const at = (data: { songs: ReturnType<typeof song>[] } | undefined) =>
    interval({ state: { data } });

  it('polls every few seconds while an own song processes, and stops after', () => {
    expect(at({ songs: [song(ME, 'processing')] })).toBe(PROCESSING_POLL_MS);
    expect(PROCESSING_POLL_MS).toBeLessThanOrEqual(5_000);
    expect(at({ songs: [song(ME, 'ready')] })).toBe(false);
    expect(at({ songs: [song(ME, 'failed')] })).toBe(false);
    expect(at(undefined)).toBe(false);
  });

  it('never polls for a listener', () => {
    const anonymous = pollWhileProcessing<{ songs: ReturnType<typeof song>[] }>(
      undefined,
      (d) => d.songs,
    );
    expect(anonymous({ state: { data: { songs: [song(OTHER, 'processing')] } } })).toBe(false);
  });
});
