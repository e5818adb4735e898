import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  closeCodes,
  createLiveConnections,
  SOCKET_OPEN,
  type LiveSocket,
} from './live-connections.ts';

type Listener = (...args: any[]) => void;

class FakeSocket implements LiveSocket {
  readyState = SOCKET_OPEN;
  sent: string[] = [];
  closedWith: number | null = null;
  terminated = false;
  pings = 0;
  answersPings = true;
  private listeners = new Map<string, Listener[]>();

  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    if (this.readyState !== SOCKET_OPEN) return;
    this.readyState = 3;
    this.closedWith = code ?? 1005;
    this.emit('close');
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  ping() {
    this.pings += 1;
    if (this.answersPings) this.emit('pong');
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

describe('live connections', () => {
  afterEach(() => vi.useRealTimers());

  it("sends to the user's open sockets only, and forgets closed ones", () => {
    const live = createLiveConnections();
    const [a1, a2, b] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    const far = Date.now() + 60_000;
    live.attach(a1, { userId: 'a', sessionId: 'a-a1', expiresAt: far });
    live.attach(a2, { userId: 'a', sessionId: 'a-a2', expiresAt: far });
    live.attach(b, { userId: 'b', sessionId: 'b-b', expiresAt: far });
    expect(live.sendTo('a', 'hello')).toBe(2);
    expect([a1.sent, a2.sent, b.sent]).toEqual([['hello'], ['hello'], []]);

    a1.close();
    expect(live.sendTo('a', 'again')).toBe(1);
    a2.close();
    expect(live.has('a')).toBe(false);
    expect(live.users()).toEqual(['b']);
    live.stop();
  });

  it('closes a socket when its access token expires', () => {
    vi.useFakeTimers();
    const live = createLiveConnections();
    const socket = new FakeSocket();
    live.attach(socket, { userId: 'a', sessionId: 'a-socket', expiresAt: Date.now() + 5_000 });
    vi.advanceTimersByTime(4_999);
    expect(socket.closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(socket.closedWith).toBe(closeCodes.sessionExpired);
    expect(live.size()).toBe(0);

    const late = new FakeSocket();
    live.attach(late, { userId: 'a', sessionId: 'a-late', expiresAt: Date.now() - 1 });
    expect(late.closedWith).toBe(closeCodes.sessionExpired);
    expect(live.size()).toBe(0);
  });

  it("closes a session's sockets when it ends, and no other session's", () => {
    const live = createLiveConnections();
    const [tab1, tab2, phone, other] = [
      new FakeSocket(),
      new FakeSocket(),
      new FakeSocket(),
      new FakeSocket(),
    ];
    const far = Date.now() + 60_000;
    live.attach(tab1, { userId: 'a', sessionId: 'laptop', expiresAt: far });
    live.attach(tab2, { userId: 'a', sessionId: 'laptop', expiresAt: far });
    live.attach(phone, { userId: 'a', sessionId: 'phone', expiresAt: far });
    live.attach(other, { userId: 'b', sessionId: 'b-laptop', expiresAt: far });
    expect(live.closeSession('laptop')).toBe(2);
    expect([tab1, tab2, phone, other].map((s) => s.closedWith)).toEqual([
      closeCodes.sessionExpired,
      closeCodes.sessionExpired,
      null,
      null,
    ]);
    expect(live.sendTo('a', 'still')).toBe(1);
    expect(phone.sent).toEqual(['still']);
    expect(live.closeSession('laptop')).toBe(0);
    live.stop();
  });

  it('ends a socket whose peer stopped answering pings', () => {
    vi.useFakeTimers();
    const live = createLiveConnections({ heartbeatMs: 1_000 });
    const [healthy, gone] = [new FakeSocket(), new FakeSocket()];
    gone.answersPings = false;
    const far = Date.now() + 600_000;
    live.attach(healthy, { userId: 'a', sessionId: 'a-healthy', expiresAt: far });
    live.attach(gone, { userId: 'b', sessionId: 'b-gone', expiresAt: far });
    vi.advanceTimersByTime(1_000); // pinged
    vi.advanceTimersByTime(1_000); // no pong since: ended
    expect(gone.terminated).toBe(true);
    expect(healthy.terminated).toBe(false);
    expect(live.users()).toEqual(['a']);
    live.stop();
  });

  it('closes the oldest socket of a user beyond the limit', () => {
    const live = createLiveConnections({ maxPerUser: 2 });
    const sockets = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    for (const s of sockets)
      live.attach(s, { userId: 'a', sessionId: 'a-s', expiresAt: Date.now() + 60_000 });
    expect(sockets.map((s) => s.closedWith)).toEqual([closeCodes.tooManyConnections, null, null]);
    expect(live.sendTo('a', 'x')).toBe(2);
    live.stop();
  });

  it('hands JSON messages on; a binary or non-JSON frame closes its socket', () => {
    const live = createLiveConnections();
    const seen: unknown[] = [];
    const far = Date.now() + 60_000;
    const ok = new FakeSocket();
    live.attach(ok, {
      userId: 'a',
      sessionId: 'a-ok',
      expiresAt: far,
      onMessage: (m) => seen.push(m),
    });
    ok.emit('message', Buffer.from('{"type":"ping"}'), false);
    expect(seen).toEqual([{ type: 'ping' }]);

    const text = new FakeSocket();
    live.attach(text, { userId: 'a', sessionId: 'a-text', expiresAt: far });
    text.emit('message', Buffer.from('nope'), false);
    expect(text.closedWith).toBe(closeCodes.policyViolation);

    const binary = new FakeSocket();
    live.attach(binary, { userId: 'a', sessionId: 'a-binary', expiresAt: far });
    binary.emit('message', Buffer.from([0, 1]), true);
    expect(binary.closedWith).toBe(closeCodes.unsupportedData);
    live.stop();
  });

  it('closes a socket that sends past its budget with 1008; a steady one lives on', () => {
    let ms = 0;
    const live = createLiveConnections({
      messageBudget: { perSecond: 20, burst: 50 },
      elapsed: () => ms,
    });
    const far = Date.now() + 60_000;
    let handled = 0;
    const attach = (socket: FakeSocket, id: string) =>
      live.attach(socket, {
        userId: id,
        sessionId: id,
        expiresAt: far,
        onMessage: () => handled++,
      });
    const ping = (socket: FakeSocket) =>
      socket.emit('message', Buffer.from('{"type":"ping"}'), false);

    const flood = new FakeSocket();
    attach(flood, 'flood');
    for (let i = 0; i < 1000; i++) ping(flood);
    expect(flood.closedWith).toBe(closeCodes.policyViolation);
    expect(handled).toBe(50);

    // 20 a second for a minute, after a burst of 50: never over the budget.
    const steady = new FakeSocket();
    attach(steady, 'steady');
    for (let i = 0; i < 50; i++) ping(steady);
    for (let i = 0; i < 1200; i++) {
      ms += 50;
      ping(steady);
    }
    expect(steady.closedWith).toBeNull();
    expect(live.size()).toBe(1);
    live.stop();
  });
});
