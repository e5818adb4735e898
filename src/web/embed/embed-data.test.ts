import { describe, expect, it } from 'vitest';
import { shareApi } from '@/contracts/api/share.api.ts';
import { routeUrl } from '@/web/lib/api-client.ts';
import {
  audioUrl,
  canonicalUrl,
  embedTarget,
  formatClock,
  readInlineData,
  shareApiUrl,
} from './embed-data.ts';

describe('embed data', () => {
  it('reads the item from the embed path, and nothing from another path', () => {
    expect(embedTarget('/embed/song/abc')).toEqual({ kind: 'song', id: 'abc' });
    expect(embedTarget('/embed/playlist/p%201/')).toEqual({ kind: 'playlist', id: 'p 1' });
    expect(embedTarget('/embed/profile/abc')).toBeNull();
    expect(embedTarget('/song/abc')).toBeNull();
  });

  it("asks the share API's routes and links the canonical page of the item", () => {
    expect(shareApiUrl({ kind: 'song', id: 'a b' })).toBe(
      routeUrl(shareApi.song, { params: { id: 'a b' } }),
    );
    expect(shareApiUrl({ kind: 'playlist', id: 'p' })).toBe(
      routeUrl(shareApi.playlist, { params: { id: 'p' } }),
    );
    expect(canonicalUrl({ kind: 'playlist', id: 'p' }, 'https://c.example')).toBe(
      'https://c.example/playlist/p',
    );
  });

  it('takes the inline data only when it names a kind, an item and a link', () => {
    const data = { kind: 'song', item: { full: false }, canonicalUrl: 'https://c/song/1' };
    expect(readInlineData(JSON.stringify(data))).toEqual(data);
    expect(readInlineData('{"kind":"song"}')).toBeNull();
    expect(readInlineData('{not json')).toBeNull();
    expect(readInlineData(null)).toBeNull();
  });

  it('plays the whole file when given, else the preview', () => {
    expect(audioUrl({ file_url: '/f', preview_url: '/p' })).toBe('/f');
    expect(audioUrl({ file_url: null, preview_url: '/p' })).toBe('/p');
    expect(audioUrl({ file_url: null, preview_url: null })).toBeNull();
  });

  it('shows times as m:ss', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(29.9)).toBe('0:29');
    expect(formatClock(125)).toBe('2:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });
});
