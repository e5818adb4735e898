import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../http/access-policy.ts';
import type { CheckedClientEvent, EngineFactory } from './companion-engine.ts';
import { createCompanionService, defaultCompanionLimits } from './companion.service.ts';

/** A `ws` socket as the service sees it: what it was sent and how it was closed. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  sent: unknown[] = [];
  closed: { code?: number; reason?: string } | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
    this.readyState = 3;
    this.emit('close');
  }
  frame(event: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(event)), false);
  }
}

const principal = (over: Partial<Principal> = {}): Principal => ({
  userId: 'u1',
  sessionId: 's1',
  aal: 'aal1',
  hasVerifiedFactor: false,
  ...over,
});

function setup(subscribed = true) {
  const handled: CheckedClientEvent[] = [];
  let opened = 0;
  const engines: EngineFactory = {
    open(sink) {
      opened++;
      sink.send({
        type: 'session.created',
        session: { id: 'x', speech: { input: false, output: false } },
      });
      return { handle: (e) => void handled.push(e), close() {} };
    },
  };
  const service = createCompanionService({
    engines,
    isSubscribed: async () => subscribed,
    limits: defaultCompanionLimits,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
  return { service, handled, opened: () => opened };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the companion socket service', () => {
  it('closes 4401 for a password-only session of a user with a second factor, opening no engine', async () => {
    const { service, opened } = setup();
    const socket = new FakeSocket();
    service.attach(
      socket,
      principal({ hasVerifiedFactor: true, aal: 'aal1' }),
      Date.now() + 60_000,
    );
    await settle();
    expect(socket.closed?.code).toBe(4401);
    expect(opened()).toBe(0);
  });

  it('holds frames sent before the checks finish and hands them over in order', async () => {
    const { service, handled } = setup();
    const socket = new FakeSocket();
    service.attach(socket, principal(), Date.now() + 60_000);
    socket.frame({ type: 'response.create' });
    socket.frame({
      type: 'input_audio_buffer.append',
      audio: Buffer.from([1, 0, 2, 0]).toString('base64'),
    });
    await settle();
    expect(handled.map((e) => e.type)).toEqual(['response.create', 'input_audio_buffer.append']);
    const audio = handled[1] as Extract<CheckedClientEvent, { type: 'input_audio_buffer.append' }>;
    expect(Array.from(audio.samples)).toEqual([1, 2]);
    expect(socket.sent).toEqual([
      { type: 'session.created', session: { id: 'x', speech: { input: false, output: false } } },
    ]);
  });

  it('closes 4001 when the access token it was opened with expires', async () => {
    const { service } = setup();
    const socket = new FakeSocket();
    service.attach(socket, principal(), Date.now() + 50);
    await settle();
    expect(socket.closed).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(socket.closed?.code).toBe(4001);
  });

  it('closes 1008 for a binary frame', async () => {
    const { service } = setup();
    const socket = new FakeSocket();
    service.attach(socket, principal(), Date.now() + 60_000);
    await settle();
    socket.emit('message', Buffer.from([1, 2]), true);
    expect(socket.closed?.code).toBe(1008);
  });

  it('lets a steady 50 frames a second through and closes a burst beyond the budget', async () => {
    let now = 0;
    const handled: unknown[] = [];
    const service = createCompanionService({
      engines: { open: () => ({ handle: (e) => void handled.push(e), close() {} }) },
      isSubscribed: async () => true,
      limits: defaultCompanionLimits,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      now: () => now,
    });
    const socket = new FakeSocket();
    service.attach(socket, principal(), Date.now() + 60_000);
    await settle();
    for (let i = 0; i < 500; i++) {
      now += 20;
      socket.frame({ type: 'response.create' });
    }
    expect(socket.closed).toBeNull();
    for (let i = 0; i < 200 && !socket.closed; i++) socket.frame({ type: 'response.create' });
    expect(socket.closed?.code).toBe(1008);
    expect(handled.length).toBeGreaterThan(500);
  });
});
