import { afterEach, describe, expect, it, vi } from 'vitest';
import { recommendationsApi } from '@/contracts/api/recommendations.api.ts';
import { searchApi } from '@/contracts/api/search.api.ts';
import { socialApi } from '@/contracts/api/social.api.ts';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { routeUrl } from '@/web/lib/api-client.ts';
import { catalogue } from './companion-catalogue.ts';

const SONG_ID = '6f1c1a52-6a1b-4c1e-9a39-4a4f1f6f2b10';
const ARTIST = '0b9e1c6e-08f2-4a51-8a8f-64a2d8f1c9d3';

const song = (id: string, title: string): SongDto => ({
  id,
  artist_id: ARTIST,
  artist: 'Miles Ahead',
  title,
  genre: 'Jazz',
  cover_art_url: null,
  file_url: `/media/music/${id}.wav`,
  preview_url: null,
  source: null,
  duration: 60,
  play_count: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  status: 'ready',
  renditions: [],
  loudness: null,
  waveform_url: null,
  has_lyrics: false,
});

/** fetch answering by path, recording each URL asked. */
function serve(answers: Record<string, unknown>): string[] {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      const path = new URL(url, 'http://canto.test').pathname;
      if (!(path in answers)) return new Response(null, { status: 404 });
      return new Response(JSON.stringify(answers[path]), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return asked;
}

const query = (url: string) => Object.fromEntries(new URL(url, 'http://canto.test').searchParams);

afterEach(() => vi.unstubAllGlobals());

describe('the companion’s catalogue', () => {
  it('recommendations of a genre ask the recommender for that genre, 10 of them', async () => {
    const asked = serve({
      [recommendationsApi.list.path]: { personal: true, songs: [song('a', 'Blue')] },
    });
    const songs = await catalogue.recommendations({ genre: 'jazz', limit: 10 });
    expect(songs.map((s) => s.title)).toEqual(['Blue']);
    expect(asked).toHaveLength(1);
    expect(query(asked[0]!)).toEqual({ genre: 'jazz', limit: '10' });
  });

  it('a genre the recommender has nothing left of (just played) falls back to its songs', async () => {
    const asked = serve({
      [recommendationsApi.list.path]: { personal: true, songs: [] },
      [songsApi.list.path]: { songs: [song('a', 'Blue')] },
    });
    const songs = await catalogue.recommendations({ genre: 'jazz', limit: 10 });
    expect(songs.map((s) => s.title)).toEqual(['Blue']);
    expect(asked.map((u) => new URL(u, 'http://canto.test').pathname)).toEqual([
      recommendationsApi.list.path,
      songsApi.list.path,
    ]);
    expect(query(asked[1]!)).toEqual({ genre: 'jazz', limit: '10' });
  });

  it('recommendations without a genre are the listener’s own, in the recommender’s order', async () => {
    const [a, b] = [song('a', 'A'), song('b', 'B')];
    const asked = serve({ [recommendationsApi.list.path]: { personal: false, songs: [b, a] } });
    const songs = await catalogue.recommendations({ limit: 10 });
    expect(songs.map((s) => s.id)).toEqual(['b', 'a']);
    expect(new URL(asked[0]!, 'http://canto.test').pathname).toBe(recommendationsApi.list.path);
    expect(query(asked[0]!)).toEqual({ limit: '10' });
  });

  it('search asks the search API with the query and the limit', async () => {
    const asked = serve({
      [searchApi.search.path]: { songs: [song('a', 'Blue')], podcasts: [], external: false },
    });
    expect((await catalogue.search('blue train', 20)).map((s) => s.title)).toEqual(['Blue']);
    expect(query(asked[0]!)).toMatchObject({ q: 'blue train', limit: '20' });
  });

  it('a song, an artist’s profile and their songs by id', async () => {
    const asked = serve({
      [routeUrl(songsApi.get, { params: { id: SONG_ID } })]: song(SONG_ID, 'One'),
      [routeUrl(socialApi.profileSongs, { params: { userId: ARTIST } })]: {
        songs: [song('x', 'Two')],
        next_cursor: null,
      },
    });
    expect((await catalogue.song(SONG_ID)).title).toBe('One');
    expect((await catalogue.artistSongs(ARTIST, 5)).map((s) => s.title)).toEqual(['Two']);
    expect(query(asked[1]!)).toEqual({ limit: '5' });
    await expect(catalogue.profile(ARTIST)).rejects.toThrow();
  });
});
