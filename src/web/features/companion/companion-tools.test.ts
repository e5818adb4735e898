import { describe, expect, it } from 'vitest';
import { companionToolOutputs, notImplementedOutput } from '@/contracts/companion.contract.ts';
import type { ProfileDto } from '@/contracts/social.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import {
  runCompanionTool,
  type CompanionCatalogue,
  type CompanionPlayer,
  type CompanionToolDeps,
} from './companion-tools.ts';

const ARTIST = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const song = (id: string, title: string, more: Partial<SongDto> = {}): SongDto => ({
  id,
  artist_id: ARTIST,
  artist: 'Miles Ahead',
  title,
  genre: 'jazz',
  cover_art_url: null,
  file_url: `/media/music/${id}.wav`,
  preview_url: null,
  source: null,
  duration: 180,
  play_count: 0,
  created_at: '2026-01-01T00:00:00Z',
  status: 'ready',
  renditions: [],
  loudness: null,
  waveform_url: null,
  has_lyrics: false,
  ...more,
});

const blueTrain = song('s1', 'Blue Train');
const rockSong = song('s2', 'Loud Night', { genre: 'rock', artist: 'The Amps', artist_id: OTHER });

const profile: ProfileDto = {
  user_id: ARTIST,
  display_name: 'Miles Ahead',
  bio: 'Trumpet and late nights.',
  avatar_url: null,
  follower_count: 42,
  following_count: 0,
  is_following: false,
  is_own: false,
  is_artist: true,
  song_count: 7,
  total_plays: 100,
  member_since: '2026-01-01T00:00:00Z',
};

function fakes(catalogueOverrides: Partial<CompanionCatalogue> = {}) {
  const calls: string[] = [];
  const state = { current: null as { id: string } | null, playing: false };
  const player: CompanionPlayer = {
    nowPlaying: () => ({ ...state }),
    play: (s) => {
      calls.push(`play ${s.id}`);
      if (!s.file_url && !s.preview_url) return false;
      state.current = { id: s.id };
      state.playing = true;
      return true;
    },
    toggle: () => {
      calls.push('toggle');
      state.playing = !state.playing;
    },
    next: () => calls.push('next'),
    previous: () => calls.push('previous'),
  };
  const catalogue: CompanionCatalogue = {
    song: async (id) => {
      calls.push(`get ${id}`);
      const found = [blueTrain, rockSong].find((s) => s.id === id);
      if (!found) throw new Error('Song not found');
      return found;
    },
    search: async (q, limit) => {
      calls.push(`search ${q} ${limit}`);
      return [blueTrain, rockSong];
    },
    recommendations: async (o) => {
      calls.push(`recommendations ${o.genre ?? '-'} ${o.limit}`);
      return [blueTrain];
    },
    profile: async (id) => {
      calls.push(`profile ${id}`);
      return profile;
    },
    artistSongs: async (id, limit) => {
      calls.push(`artistSongs ${id} ${limit}`);
      return Array.from({ length: 6 }, (_, i) => song(`a${i}`, `Take ${i}`));
    },
    ...catalogueOverrides,
  };
  const deps: CompanionToolDeps = {
    player,
    catalogue,
    describeError: (e) => (e instanceof Error ? e.message : 'failed'),
  };
  return { deps, calls, state };
}

const run = async (deps: CompanionToolDeps, name: string, args: unknown) =>
  JSON.parse(await runCompanionTool(name, JSON.stringify(args), deps)) as Record<string, unknown>;

describe('control_playback', () => {
  it('play with a song id fetches the song, plays it and names it', async () => {
    const { deps, calls, state } = fakes();
    const out = await run(deps, 'control_playback', { action: 'play', song_id: 's1' });
    expect(out).toEqual({
      ok: true,
      now_playing: { title: 'Blue Train', artist_name: 'Miles Ahead' },
    });
    expect(companionToolOutputs.control_playback.parse(out)).toEqual(out);
    expect(calls).toEqual(['get s1', 'play s1']);
    expect(state).toEqual({ current: { id: 's1' }, playing: true });
  });

  it('playing the song already playing leaves it playing (loading it again would pause it)', async () => {
    const { deps, calls, state } = fakes();
    state.current = { id: 's1' };
    state.playing = true;
    const out = await run(deps, 'control_playback', { action: 'play', song_id: 's1' });
    expect(out.ok).toBe(true);
    expect(calls).toEqual(['get s1']);
    expect(state.playing).toBe(true);
  });

  it('playing the current song while paused resumes it', async () => {
    const { deps, calls, state } = fakes();
    state.current = { id: 's1' };
    await run(deps, 'control_playback', { action: 'play', song_id: 's1' });
    expect(calls).toEqual(['get s1', 'toggle']);
    expect(state.playing).toBe(true);
  });

  it('an unknown song is an error answer and the player is untouched', async () => {
    const { deps, calls } = fakes();
    const out = await run(deps, 'control_playback', { action: 'play', song_id: 'nope' });
    expect(out).toEqual({ ok: false, error: 'Song not found' });
    expect(calls).toEqual(['get nope']);
  });

  it('a song without audio is refused', async () => {
    const silent = song('s9', 'Silent', { file_url: null });
    const { deps } = fakes({ song: async () => silent });
    const out = await run(deps, 'control_playback', { action: 'play', song_id: 's9' });
    expect(out).toEqual({ ok: false, error: 'This song has no audio to play' });
  });

  it('play without a song resumes the paused item, or says there is nothing', async () => {
    const empty = fakes();
    expect(await run(empty.deps, 'control_playback', { action: 'play' })).toMatchObject({
      ok: false,
    });
    expect(empty.calls).toEqual([]);
    const paused = fakes();
    paused.state.current = { id: 's1' };
    expect(await run(paused.deps, 'control_playback', { action: 'play' })).toEqual({ ok: true });
    expect(paused.calls).toEqual(['toggle']);
  });

  it('pause pauses only what plays; next and previous drive the player', async () => {
    const { deps, calls, state } = fakes();
    await run(deps, 'control_playback', { action: 'pause' });
    expect(calls).toEqual([]);
    state.current = { id: 's1' };
    state.playing = true;
    await run(deps, 'control_playback', { action: 'pause' });
    await run(deps, 'control_playback', { action: 'next' });
    await run(deps, 'control_playback', { action: 'previous' });
    expect(calls).toEqual(['toggle', 'next', 'previous']);
    expect(state.playing).toBe(false);
  });

  it('an action outside the contract is an invalid-arguments answer', async () => {
    const { deps, calls } = fakes();
    const out = await run(deps, 'control_playback', { action: 'stop' });
    expect(String(out.error)).toMatch(/^Invalid arguments for control_playback/);
    expect(calls).toEqual([]);
  });
});

describe('search_music', () => {
  it('asks the search API and keeps songs whose title or artist contains the query', async () => {
    const { deps, calls } = fakes();
    const out = await run(deps, 'search_music', { query: 'blue' });
    expect(calls).toEqual(['search blue 20']);
    expect(out).toEqual({
      songs: [
        {
          id: 's1',
          title: 'Blue Train',
          artist_id: ARTIST,
          artist_name: 'Miles Ahead',
          genre: 'jazz',
        },
      ],
    });
    expect(companionToolOutputs.search_music.parse(out)).toEqual(out);
    const byArtist = await run(deps, 'search_music', { query: 'AMPS' });
    expect((byArtist.songs as { id: string }[]).map((s) => s.id)).toEqual(['s2']);
  });

  it('returns at most 5 songs and leaves out external tracks', async () => {
    const many = Array.from({ length: 8 }, (_, i) => song(`m${i}`, `Blue ${i}`));
    const external = song('ext:1', 'Blue External', { source: 'ext', artist_id: null });
    const { deps } = fakes({ search: async () => [external, ...many] });
    const out = await run(deps, 'search_music', { query: 'blue' });
    expect((out.songs as { id: string }[]).map((s) => s.id)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
  });

  it('a blank query finds nothing without asking', async () => {
    const { deps, calls } = fakes();
    expect(await run(deps, 'search_music', { query: '  ' })).toEqual({ songs: [] });
    expect(calls).toEqual([]);
  });

  it('a failing API is an error answer, not a thrown one', async () => {
    const { deps } = fakes({
      search: async () => {
        throw new Error('Network error');
      },
    });
    expect(await run(deps, 'search_music', { query: 'x' })).toEqual({ error: 'Network error' });
  });
});

describe('get_recommendations', () => {
  it('asks for 10 in the genre, or without one', async () => {
    const { deps, calls } = fakes();
    const out = await run(deps, 'get_recommendations', { genre: 'jazz' });
    expect(companionToolOutputs.get_recommendations.parse(out).songs.map((s) => s.id)).toEqual([
      's1',
    ]);
    await run(deps, 'get_recommendations', {});
    await run(deps, 'get_recommendations', { genre: ' ' });
    expect(calls).toEqual([
      'recommendations jazz 10',
      'recommendations - 10',
      'recommendations - 10',
    ]);
  });
});

describe('get_artist_info', () => {
  it('finds the artist through search, then their profile and up to 5 songs', async () => {
    const { deps, calls } = fakes();
    const out = await run(deps, 'get_artist_info', { name: 'miles ahead' });
    expect(calls).toEqual([
      'search miles ahead 20',
      `profile ${ARTIST}`,
      `artistSongs ${ARTIST} 5`,
    ]);
    const parsed = companionToolOutputs.get_artist_info.parse(out);
    expect(parsed.artist).toEqual({
      id: ARTIST,
      name: 'Miles Ahead',
      bio: 'Trumpet and late nights.',
      followers: 42,
    });
    expect(parsed.songs).toHaveLength(5);
  });

  it('prefers the artist named exactly over one whose name only contains it', async () => {
    const amps = song('x', 'Song', { artist: 'Ampster', artist_id: ARTIST });
    const { deps, calls } = fakes({ search: async () => [amps, rockSong] });
    await run(deps, 'get_artist_info', { name: 'The Amps' });
    expect(calls).toContain(`profile ${OTHER}`);
  });

  it('an artist nobody matches is a null artist', async () => {
    const { deps, calls } = fakes();
    expect(await run(deps, 'get_artist_info', { name: 'Nobody Here' })).toEqual({
      artist: null,
      songs: [],
    });
    expect(calls).toEqual(['search Nobody Here 20']);
  });
});

describe('dispatch', () => {
  it('an unknown tool answers the contract’s not-implemented output', async () => {
    const { deps, calls } = fakes();
    expect(await runCompanionTool('order_pizza', '{}', deps)).toBe(
      JSON.stringify(notImplementedOutput('order_pizza')),
    );
    expect(JSON.parse(await runCompanionTool('order_pizza', '{}', deps))).toEqual({
      error: 'Function order_pizza is not implemented',
    });
    // A name on Object's prototype is no tool either.
    expect(JSON.parse(await runCompanionTool('toString', '{}', deps))).toEqual({
      error: 'Function toString is not implemented',
    });
    expect(calls).toEqual([]);
  });

  it('arguments that are not JSON are an error answer', async () => {
    const { deps } = fakes();
    const out = JSON.parse(await runCompanionTool('search_music', '{query:', deps));
    expect(out.error).toMatch(/^Invalid arguments for search_music/);
  });
});
