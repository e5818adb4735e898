import { describe, expect, it } from 'vitest';
import {
  firstStep,
  HELP_TEXT,
  listOf,
  nextStep,
  parseIntent,
  type CompanionSongInfo,
  type Plan,
} from './companion-intent.ts';

const song = (id: string, title: string, artist_name?: string): CompanionSongInfo => ({
  id,
  title,
  artist_id: `a-${id}`,
  artist_name,
});

describe('parseIntent', () => {
  it.each([
    ['play something jazzy', { kind: 'play_recommended', genre: 'jazz' }],
    ['Play something jazzy!', { kind: 'play_recommended', genre: 'jazz' }],
    ['can you please play something funky', { kind: 'play_recommended', genre: 'funk' }],
    ['play some chill music', { kind: 'play_recommended', genre: 'chill' }],
    ['play something bluesy', { kind: 'play_recommended', genre: 'blues' }],
    ['play me something rocky', { kind: 'play_recommended', genre: 'rock' }],
    ['play something poppy', { kind: 'play_recommended', genre: 'pop' }],
    ['play jazz', { kind: 'play_recommended', genre: 'jazz' }],
    ['play something', { kind: 'play_recommended' }],
    ['play Blue in Green', { kind: 'play_search', query: 'blue in green' }],
    [
      'play So What by Miles Davis',
      { kind: 'play_search', query: 'so what', artist: 'miles davis' },
    ],
    ["I'd like to hear Night Swing", { kind: 'play_search', query: 'night swing' }],
    ['pause', { kind: 'playback', action: 'pause' }],
    ['stop the music', { kind: 'playback', action: 'pause' }],
    ['resume', { kind: 'playback', action: 'play' }],
    ['play', { kind: 'playback', action: 'play' }],
    ['next song', { kind: 'playback', action: 'next' }],
    ['skip', { kind: 'playback', action: 'next' }],
    ['play the next track', { kind: 'playback', action: 'next' }],
    ['previous', { kind: 'playback', action: 'previous' }],
    ['go back', { kind: 'playback', action: 'previous' }],
    ['who is Miles Davis?', { kind: 'artist_info', name: 'miles davis' }],
    ['tell me about the band Blue Trio', { kind: 'artist_info', name: 'blue trio' }],
    ['recommend something', { kind: 'recommend' }],
    ['recommend some jazz', { kind: 'recommend', genre: 'jazz' }],
    ['find night swing', { kind: 'search', query: 'night swing' }],
    ['what is the weather', { kind: 'help' }],
    ['', { kind: 'help' }],
  ])('%j', (text, intent) => expect(parseIntent(text)).toEqual(intent));
});

describe('plans', () => {
  it('play something jazzy: recommendations of jazz, then play the first, then say it', () => {
    const plan: Plan = { intent: parseIntent('play something jazzy') };
    expect(firstStep(plan.intent)).toEqual({
      kind: 'call',
      call: { name: 'get_recommendations', arguments: { genre: 'jazz' } },
    });
    const songs = [song('s1', 'Night Swing', 'Blue Trio'), song('s2', 'Late Set')];
    expect(nextStep(plan, { name: 'get_recommendations', songs })).toEqual({
      kind: 'call',
      call: { name: 'control_playback', arguments: { action: 'play', song_id: 's1' } },
    });
    expect(nextStep(plan, { name: 'control_playback', ok: true })).toEqual({
      kind: 'say',
      text: 'Playing Night Swing by Blue Trio.',
    });
  });

  it('says when nothing was found or playback failed', () => {
    const jazz: Plan = { intent: parseIntent('play something jazzy') };
    expect(nextStep(jazz, { name: 'get_recommendations', songs: [] })).toEqual({
      kind: 'say',
      text: "I couldn't find any jazz songs.",
    });
    const search: Plan = { intent: parseIntent('play Nope') };
    expect(nextStep(search, { name: 'search_music', songs: [] })).toEqual({
      kind: 'say',
      text: 'I couldn\'t find anything called "nope".',
    });
    const pause: Plan = { intent: parseIntent('pause') };
    expect(
      nextStep(pause, { name: 'control_playback', ok: false, error: 'Nothing is playing' }),
    ).toEqual({
      kind: 'say',
      text: "I couldn't pause: Nothing is playing",
    });
    expect(
      nextStep(pause, { name: 'control_playback', failed: 'Function x is not implemented' }),
    ).toEqual({
      kind: 'say',
      text: "Sorry, that didn't work: Function x is not implemented",
    });
  });

  it('prefers the named artist among the matches', () => {
    const plan: Plan = { intent: parseIntent('play So What by Miles Davis') };
    const step = nextStep(plan, {
      name: 'search_music',
      songs: [song('s1', 'So What', 'Cover Band'), song('s2', 'So What', 'Miles Davis')],
    });
    expect(step).toEqual({
      kind: 'call',
      call: { name: 'control_playback', arguments: { action: 'play', song_id: 's2' } },
    });
  });

  it('tells about an artist from the tool’s output', () => {
    const plan: Plan = { intent: parseIntent('who is blue trio') };
    expect(
      nextStep(plan, {
        name: 'get_artist_info',
        artist: { id: 'a', name: 'Blue Trio', bio: 'A jazz trio. From Lyon.', followers: 1 },
        songs: [song('s1', 'Night Swing'), song('s2', 'Late Set'), song('s3', 'Dawn')],
      }),
    ).toEqual({
      kind: 'say',
      text: 'Blue Trio has 1 follower. A jazz trio. Their songs include Night Swing, Late Set and Dawn.',
    });
    expect(nextStep(plan, { name: 'get_artist_info', artist: null, songs: [] })).toEqual({
      kind: 'say',
      text: "I couldn't find an artist called blue trio.",
    });
  });

  it('answers plain playback and help in words', () => {
    expect(
      nextStep({ intent: parseIntent('next song') }, { name: 'control_playback', ok: true }),
    ).toEqual({
      kind: 'say',
      text: 'Skipping to the next song.',
    });
    expect(firstStep(parseIntent('hello there'))).toEqual({ kind: 'say', text: HELP_TEXT });
    expect(listOf(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
