import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPANION_FRAME_SAMPLES,
  COMPANION_MAX_FRAME_BYTES,
  companionCloseCodes,
  notImplementedOutput,
  serverEvent,
  type CompanionSong,
} from '../../src/contracts/companion.contract.ts';
import type { SongDto } from '../../src/contracts/songs.contract.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { subscribe } from './ads-helpers.ts';
import { CompanionClient, listening } from './companion-helpers.ts';
import { makeUser, makeWav, multipart, type TestUser } from './songs-helpers.ts';

/*
 * The AI companion socket with the local engine (docs/decisions/0033), over a real listening
 * server and a real WebSocket client scripted as the web panel: who may open it, the typed
 * 'play something jazzy' flow with tools answered from the real API, and the limits.
 */

const toSong = (s: SongDto): CompanionSong => ({
  id: s.id,
  title: s.title,
  artist_id: s.artist_id ?? '',
  artist_name: s.artist ?? undefined,
  genre: s.genre ?? undefined,
});

describe.each(dbKinds)('the AI companion socket, local engine (%s)', (kind) => {
  const ctx = useTestApp(kind);
  let base: string;
  let premium: TestUser;
  let free: TestUser;
  let artist: TestUser;
  const clients: CompanionClient[] = [];
  const open = (token?: string) => {
    const client = CompanionClient.open(base, token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    base = await listening(ctx);
    premium = await makeUser(ctx, 'listener', 'Premium Listener');
    free = await makeUser(ctx, 'listener', 'Free Listener');
    artist = await makeUser(ctx, 'artist', 'Blue Trio');
    await subscribe(ctx, premium.userId);
    for (const [title, genre] of [
      ['Night Swing', 'jazz'],
      ['Loud Guitars', 'rock'],
    ] as const) {
      const { headers, payload } = multipart([
        { name: 'title', value: title },
        { name: 'genre', value: genre },
        { name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: makeWav(1) },
      ]);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/songs',
        headers: { ...headers, ...artist.headers },
        payload,
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => {
    for (const c of clients) c.socket.terminate();
  });

  /** What the panel's get_recommendations does: the genre's songs from the API. */
  async function recommendations(genre?: string): Promise<CompanionSong[]> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs?limit=10${genre ? `&genre=${encodeURIComponent(genre)}` : ''}`,
      headers: premium.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { songs: SongDto[] }).songs.map(toSong);
  }

  it('closes a signed-out socket with 4401 and a free listener’s with 4403', async () => {
    const out = open();
    expect((await out.closes()).code).toBe(companionCloseCodes.signedOut);
    const listener = open(free.token);
    expect((await listener.closes()).code).toBe(companionCloseCodes.notSubscriber);
    expect(out.events).toEqual([]);
    expect(listener.events).toEqual([]);
  });

  it('plays something jazzy: recommendations, then the first song, then says so', async () => {
    const client = open(premium.token);
    const created = await client.next('session.created');
    expect(created.session.speech).toEqual({
      input: expect.any(Boolean),
      output: expect.any(Boolean),
    });
    client.say('Play something jazzy');
    const first = await client.next('response.function_call_arguments.done');
    expect(first.name).toBe('get_recommendations');
    expect(JSON.parse(first.arguments)).toEqual({ genre: 'jazz' });
    const songs = await recommendations('jazz');
    expect(songs.map((s) => s.title)).toEqual(['Night Swing']);
    client.answer(first.call_id, { songs });
    const play = await client.next('response.function_call_arguments.done', first.index + 1);
    expect(play.name).toBe('control_playback');
    expect(JSON.parse(play.arguments)).toEqual({ action: 'play', song_id: songs[0]!.id });
    expect(play.call_id).not.toBe(first.call_id);
    client.answer(play.call_id, {
      ok: true,
      now_playing: { title: 'Night Swing', artist_name: 'Blue Trio' },
    });
    const said = await client.next('response.audio_transcript.delta', play.index + 1);
    expect(said.delta).toBe('Playing Night Swing by Blue Trio.');
    const done = await client.next('response.done', said.index + 1);
    const answer = client.events.slice(said.index, done.index + 1);
    if (created.session.speech.output) {
      const audio = answer.filter((e) => e.type === 'response.audio.delta');
      expect(audio.length).toBeGreaterThan(2);
      for (const a of audio) {
        const bytes = Buffer.from(a.delta, 'base64').length;
        expect(bytes % 2).toBe(0);
        expect(bytes).toBeLessThanOrEqual(COMPANION_FRAME_SAMPLES * 2);
      }
      expect(answer.at(-2)?.type).toBe('response.audio.done');
    } else {
      console.warn('espeak-ng is not installed: the answer is text only');
      expect(answer.map((e) => e.type)).toEqual([
        'response.audio_transcript.delta',
        'response.done',
      ]);
    }
    // Everything the server sent is an event of the contract.
    for (const e of client.events) expect(serverEvent.safeParse(e).success).toBe(true);
    expect(client.events.slice(0, 3).map((e) => e.type)).toEqual([
      'session.created',
      'response.function_call_arguments.done',
      'response.done',
    ]);
  });

  it('answers who an artist is from the tool’s output, and what it cannot find', async () => {
    const client = open(premium.token);
    await client.next('session.created');
    client.say('who is Blue Trio');
    const call = await client.next('response.function_call_arguments.done');
    expect(call.name).toBe('get_artist_info');
    expect(JSON.parse(call.arguments)).toEqual({ name: 'blue trio' });
    const songs = (await recommendations()).filter((s) => s.artist_id === artist.userId);
    client.answer(call.call_id, {
      artist: { id: artist.userId, name: 'Blue Trio', bio: null, followers: 3 },
      songs,
    });
    const said = await client.next('response.audio_transcript.delta', call.index + 1);
    expect(said.delta).toMatch(
      /^Blue Trio has 3 followers\. Their songs include (Night Swing|Loud Guitars) and (Night Swing|Loud Guitars)\.$/,
    );
    const done = await client.next('response.done', said.index + 1);

    client.say('play Nothing Like This');
    const search = await client.next('response.function_call_arguments.done', done.index + 1);
    expect(search.name).toBe('search_music');
    expect(JSON.parse(search.arguments)).toEqual({ query: 'nothing like this' });
    client.answer(search.call_id, { songs: [] });
    const none = await client.next('response.audio_transcript.delta', search.index + 1);
    expect(none.delta).toBe('I couldn\'t find anything called "nothing like this".');
  });

  it('refuses an answer to a call it did not make, and takes the right one after', async () => {
    const client = open(premium.token);
    await client.next('session.created');
    client.say('pause');
    const call = await client.next('response.function_call_arguments.done');
    expect(JSON.parse(call.arguments)).toEqual({ action: 'pause' });
    client.answer('call_not_mine', { ok: true });
    const refused = await client.next('error', call.index + 1);
    expect(refused.error.code).toBe('unknown_call');
    // The panel's answer to a tool it does not know (spec §7), not the tool's shape.
    client.answer(call.call_id, notImplementedOutput('control_playback'));
    const said = await client.next('response.audio_transcript.delta', call.index + 1);
    expect(said.delta).toBe(
      "Sorry, that didn't work: Function control_playback is not implemented",
    );
    const done = await client.next('response.done', said.index + 1);

    client.say('skip');
    const skip = await client.next('response.function_call_arguments.done', done.index + 1);
    client.answer(skip.call_id, { ok: false, error: 'No more skips this hour' });
    const refusedSkip = await client.next('response.audio_transcript.delta', skip.index + 1);
    expect(refusedSkip.delta).toBe("I couldn't skip: No more skips this hour");
  });

  it('closes a frame over 64 KiB with 1009, bad JSON, unknown events and odd audio with 1008', async () => {
    const cases: [string, number][] = [
      [
        JSON.stringify({
          type: 'input_audio_buffer.append',
          audio: 'A'.repeat(COMPANION_MAX_FRAME_BYTES),
        }),
        1009,
      ],
      ['{not json', 1008],
      [JSON.stringify({ type: 'session.update', session: {} }), 1008],
      [
        JSON.stringify({
          type: 'input_audio_buffer.append',
          audio: Buffer.from([1, 2, 3]).toString('base64'),
        }),
        1008,
      ],
      [JSON.stringify({ type: 'input_audio_buffer.append', audio: '***not base64***' }), 1008],
    ];
    for (const [frame, code] of cases) {
      const client = open(premium.token);
      await client.next('session.created');
      client.socket.send(frame);
      expect((await client.closes()).code, frame.slice(0, 60)).toBe(code);
    }
  });

  it('closes a flooding socket with 1008 and keeps serving everyone else', async () => {
    const bystander = open(premium.token);
    await bystander.next('session.created');
    const flood = open(premium.token);
    await flood.next('session.created');
    const frame = JSON.stringify({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(256).toString('base64'),
    });
    for (let i = 0; i < 10_000 && flood.socket.readyState === 1; i++) flood.socket.send(frame);
    expect((await flood.closes()).code).toBe(1008);
    const health = await fetch(`${base.replace('ws', 'http')}/api/health`);
    expect(health.status).toBe(200);
    bystander.say('next song');
    const call = await bystander.next('response.function_call_arguments.done');
    expect(JSON.parse(call.arguments)).toEqual({ action: 'next' });
  });

  it('lets a user hold two companion sockets: a third closes the oldest', async () => {
    const a = open(premium.token);
    await a.next('session.created');
    const b = open(premium.token);
    await b.next('session.created');
    const c = open(premium.token);
    await c.next('session.created');
    expect((await a.closes()).code).toBe(companionCloseCodes.openedElsewhere);
    expect(b.closed).toBeNull();
  });
});
