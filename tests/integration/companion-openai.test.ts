import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companionCloseCodes, companionToolNames } from '../../src/contracts/companion.contract.ts';
import { FAKE_OPENAI_KEY, startFakeRealtime } from '../helpers/fake-openai-realtime.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { subscribe } from './ads-helpers.ts';
import { CompanionClient, listening } from './companion-helpers.ts';
import { makeUser, type TestUser } from './songs-helpers.ts';

/*
 * AI_PROVIDER=openai (docs/decisions/0033): the companion socket relayed to a Realtime server,
 * here a local fake speaking its protocol. Events go both ways after the socket's checks, the
 * key only upstream; refused sockets never reach it; an upstream that fails, closes or keeps
 * quiet ends the socket with an error event and 4502 within AI_TIMEOUT_MS.
 */

const TIMEOUT_MS = 1_000;
const fake = await startFakeRealtime();
afterAll(() => fake.close());

const pcm = Buffer.from(Int16Array.from([1, -1, 300, -300]).buffer).toString('base64');

describe.each(dbKinds)('the AI companion relayed to OpenAI Realtime (%s)', (kind) => {
  const ctx = useTestApp(kind, {
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: FAKE_OPENAI_KEY,
    OPENAI_REALTIME_MODEL: 'gpt-4o-realtime-preview',
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  let base: string;
  let premium: TestUser;
  let free: TestUser;
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
    await subscribe(ctx, premium.userId);
  });
  beforeEach(() => {
    fake.connections.length = 0;
    fake.received.length = 0;
    fake.onEvent = () => {};
    fake.refuse = null;
    fake.hang = false;
  });
  afterAll(() => {
    for (const c of clients) c.socket.terminate();
  });

  it('refuses the signed-out (4401) and free listeners (4403) without reaching upstream', async () => {
    const out = open();
    await out.opened;
    out.send({ type: 'response.create' });
    expect((await out.closes()).code).toBe(companionCloseCodes.signedOut);
    const listener = open(free.token);
    await listener.opened;
    listener.send({ type: 'response.create' });
    expect((await listener.closes()).code).toBe(companionCloseCodes.notSubscriber);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.connections).toEqual([]);
  });

  it('relays both ways: session, tools, audio and a tool call; the key stays upstream', async () => {
    fake.onEvent = (event, reply) => {
      if (event.type !== 'response.create') return;
      reply({ type: 'response.created', event_id: 'e3', response: { id: 'resp_1' } });
      reply({ type: 'rate_limits.updated', event_id: 'e4', rate_limits: [] });
      reply({
        type: 'response.function_call_arguments.done',
        event_id: 'e5',
        response_id: 'resp_1',
        item_id: 'item_1',
        output_index: 0,
        call_id: 'call_up_1',
        name: 'get_recommendations',
        arguments: '{"genre":"jazz"}',
      });
      reply({
        type: 'response.done',
        event_id: 'e6',
        response: { id: 'resp_1', status: 'completed' },
      });
    };
    const client = open(premium.token);
    const created = await client.next('session.created');
    expect(created).toMatchObject({
      session: { id: 'sess_fake', speech: { input: true, output: true } },
    });
    client.send({ type: 'input_audio_buffer.append', audio: pcm });
    client.say('play something jazzy');
    const call = await client.next('response.function_call_arguments.done');
    expect(call).toEqual({
      type: 'response.function_call_arguments.done',
      name: 'get_recommendations',
      arguments: '{"genre":"jazz"}',
      call_id: 'call_up_1',
      index: call.index,
    });
    await client.next('response.done', call.index);

    // Upstream: the key and headers, then session.update with the four tools, then the events.
    expect(fake.connections).toHaveLength(1);
    const [connection] = fake.connections;
    expect(connection!.url).toBe('/v1/realtime?model=gpt-4o-realtime-preview');
    expect(connection!.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
    expect(connection!.headers['openai-beta']).toBe('realtime=v1');
    const [update, ...rest] = fake.received;
    expect(update).toMatchObject({
      type: 'session.update',
      session: {
        input_audio_format: 'pcm16',
        output_audio_format: 'pcm16',
        turn_detection: { type: 'server_vad' },
        input_audio_transcription: { model: expect.any(String) },
      },
    });
    const tools = (update!.session as { tools: { name: string; parameters: unknown }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual([...companionToolNames]);
    expect(tools[0]!.parameters).toMatchObject({
      type: 'object',
      properties: { action: { enum: ['play', 'pause', 'next', 'previous'] } },
      required: ['action'],
    });
    expect(rest).toEqual([
      { type: 'input_audio_buffer.append', audio: pcm },
      {
        type: 'conversation.item.create',
        item: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'play something jazzy' }],
        },
      },
      { type: 'response.create' },
    ]);
    // Downstream: only the contract's events, and never the key.
    const types = client.events.map((e) => e.type);
    expect(types).not.toContain('rate_limits.updated');
    expect(types).not.toContain('response.created');
    expect(JSON.stringify(client.events)).not.toContain(FAKE_OPENAI_KEY);

    client.answer(call.call_id, { songs: [] });
    await expect.poll(() => fake.received.length).toBe(6);
    expect(fake.received.slice(4)).toEqual([
      {
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: 'call_up_1', output: '{"songs":[]}' },
      },
      { type: 'response.create' },
    ]);
  });

  it('checks events before relaying them: odd audio closes 1008 and goes nowhere', async () => {
    const client = open(premium.token);
    await client.next('session.created');
    client.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.from([1, 2, 3]).toString('base64'),
    });
    expect((await client.closes()).code).toBe(1008);
    expect(fake.received.filter((e) => e.type !== 'session.update')).toEqual([]);
  });

  it('an upstream that keeps quiet after response.create: error and 4502 within the timeout', async () => {
    const client = open(premium.token);
    await client.next('session.created');
    const asked = performance.now();
    client.send({ type: 'response.create' });
    const error = await client.next('error');
    expect(error.error.message).toMatch(/did not answer in time/);
    expect((await client.closes()).code).toBe(companionCloseCodes.upstreamFailed);
    expect(performance.now() - asked).toBeLessThan(TIMEOUT_MS + 500);
  });

  it('an upstream that goes away or refuses: error and 4502', async () => {
    const client = open(premium.token);
    await client.next('session.created');
    for (const s of fake.sockets.splice(0)) s.terminate();
    expect((await client.next('error')).error.message).toMatch(/closed the connection/);
    expect((await client.closes()).code).toBe(companionCloseCodes.upstreamFailed);

    fake.refuse = 500;
    const refused = open(premium.token);
    expect((await refused.next('error')).error.message).toMatch(
      /refused the connection \(HTTP 500\)/,
    );
    expect((await refused.closes()).code).toBe(companionCloseCodes.upstreamFailed);
  });

  it('an upstream that never completes the handshake: error and 4502 within the timeout', async () => {
    fake.hang = true;
    const started = performance.now();
    const client = open(premium.token);
    expect((await client.next('error')).error.code).toBe('upstream_failed');
    expect((await client.closes()).code).toBe(companionCloseCodes.upstreamFailed);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 500);
  });
});

describe('the AI companion relayed to an unreachable server (pglite)', () => {
  // Port 9 (discard) on loopback: nothing listens there.
  const ctx = useTestApp('pglite', {
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: FAKE_OPENAI_KEY,
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
  });

  it('answers error and 4502, and the server keeps answering', async () => {
    const base = await listening(ctx);
    const user = await makeUser(ctx, 'listener', 'Premium Listener');
    await subscribe(ctx, user.userId);
    const client = CompanionClient.open(base, user.token);
    expect((await client.next('error')).error.message).toMatch(/could not be reached/);
    expect((await client.closes()).code).toBe(companionCloseCodes.upstreamFailed);
    expect((await fetch(`${base.replace('ws', 'http')}/api/health`)).status).toBe(200);
  });
});
