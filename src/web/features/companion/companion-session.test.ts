import { describe, expect, it } from 'vitest';
import {
  clientEvent,
  companionCloseCodes,
  type CompanionServerEvent,
} from '@/contracts/companion.contract.ts';
import {
  companionReducer,
  companionStatusText,
  initialCompanionState,
  isTextOnly,
  type CompanionState,
} from '@/core/ai/companion-state.ts';
import {
  CompanionSession,
  type CompanionAudio,
  type CompanionSocket,
} from './companion-session.ts';

class FakeSocket implements CompanionSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: CompanionSocket['onopen'] = null;
  onmessage: CompanionSocket['onmessage'] = null;
  onerror: CompanionSocket['onerror'] = null;
  onclose: CompanionSocket['onclose'] = null;
  send(data: string) {
    // Everything the client sends is a valid client event.
    this.sent.push(clientEvent.parse(JSON.parse(data)));
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // The server's side:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  emit(event: CompanionServerEvent | Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  types() {
    return this.sent.map((e) => (e as { type: string }).type);
  }
}

class FakeAudio implements CompanionAudio {
  played: string[] = [];
  interrupted = 0;
  closed = false;
  micFrames: ((b: string) => void) | null = null;
  constructor(private readonly refuse?: Error) {}
  async startMicrophone(onFrame: (b: string) => void) {
    if (this.refuse) throw this.refuse;
    this.micFrames = onFrame;
  }
  play(b: string) {
    this.played.push(b);
  }
  interrupt() {
    this.interrupted++;
  }
  close() {
    this.closed = true;
  }
}

const created = (input = true, output = true): CompanionServerEvent => ({
  type: 'session.created',
  session: { id: 'sess', speech: { input, output } },
});

function setup(
  options: {
    refuseMic?: Error;
    tool?: (n: string, a: string) => Promise<string>;
    renew?: (openedAt: number) => Promise<boolean>;
  } = {},
) {
  const sockets: FakeSocket[] = [];
  const audios: FakeAudio[] = [];
  const notices: string[] = [];
  const tools: string[] = [];
  let state: CompanionState = initialCompanionState;
  const session = new CompanionSession({
    openSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    createAudio: () => {
      const a = new FakeAudio(options.refuseMic);
      audios.push(a);
      return a;
    },
    runTool:
      options.tool ??
      (async (name, args) => {
        tools.push(`${name} ${args}`);
        return JSON.stringify({ songs: [] });
      }),
    dispatch: (e) => {
      state = companionReducer(state, e);
    },
    renewSession: options.renew,
    notices: {
      connected: () => notices.push('connected'),
      connectionError: () => notices.push('connection error'),
      startFailed: (m) => notices.push(`start failed: ${m ?? '-'}`),
    },
  });
  return {
    session,
    notices,
    tools,
    state: () => state,
    socket: () => sockets.at(-1)!,
    audio: () => audios.at(-1)!,
    sockets,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('CompanionSession', () => {
  it('is connected once the socket opens, with the toast, and starts the microphone on session.created', async () => {
    const t = setup();
    t.session.connect();
    expect(companionStatusText(t.state())).toBe('Not connected');
    t.socket().open();
    expect(companionStatusText(t.state())).toBe('Ready to help');
    expect(t.notices).toEqual(['connected']);
    expect(t.audio().micFrames).toBeNull();
    t.socket().emit(created());
    await flush();
    expect(t.state().microphone).toBe(true);
    t.audio().micFrames!('AAAA');
    expect(t.socket().sent).toEqual([{ type: 'input_audio_buffer.append', audio: 'AAAA' }]);
  });

  it('a refused microphone shows the start-failure toast and stays connected for typing', async () => {
    const t = setup({ refuseMic: new Error('Permission denied') });
    t.session.connect();
    t.socket().open();
    t.socket().emit(created());
    await flush();
    expect(t.notices).toEqual(['connected', 'start failed: Permission denied']);
    expect(t.state().connection).toBe('connected');
    expect(t.state().microphone).toBe(false);
    expect(t.session.sendText('hello')).toBe(true);
  });

  it('a text-only session starts no microphone and says so', async () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.socket().emit(created(false, false));
    await flush();
    expect(t.audio().micFrames).toBeNull();
    expect(isTextOnly(t.state())).toBe(true);
  });

  it('follows listening, transcripts, and speaking while audio arrives', () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.socket().emit({ type: 'input_audio_buffer.speech_started' });
    expect(companionStatusText(t.state())).toBe('Listening...');
    expect(t.audio().interrupted).toBe(1);
    t.socket().emit({ type: 'input_audio_buffer.speech_stopped' });
    t.socket().emit({
      type: 'conversation.item.input_audio_transcription.completed',
      transcript: 'play jazz',
    });
    t.socket().emit({ type: 'response.audio_transcript.delta', delta: 'On ' });
    t.socket().emit({ type: 'response.audio_transcript.delta', delta: 'it.' });
    t.socket().emit({ type: 'response.audio.delta', delta: 'UENN' });
    expect(t.state().speaking).toBe(true);
    expect(t.audio().played).toEqual(['UENN']);
    t.socket().emit({ type: 'response.audio.done' });
    t.socket().emit({ type: 'response.done' });
    expect(t.state().speaking).toBe(false);
    expect(t.state().transcript.map((l) => l.text)).toEqual(['play jazz', 'On it.']);
  });

  it('a typed message is a user item and a response, and a transcript line', () => {
    const t = setup();
    t.session.connect();
    expect(t.session.sendText('too early')).toBe(false);
    t.socket().open();
    expect(t.session.sendText('  play something jazzy ')).toBe(true);
    expect(t.socket().sent).toEqual([
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
    expect(t.state().transcript.at(-1)?.text).toBe('play something jazzy');
    expect(t.session.sendText('   ')).toBe(false);
  });

  it('answers a tool call with its output, then asks for the response once all are answered', async () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.socket().emit({
      type: 'response.function_call_arguments.done',
      name: 'search_music',
      arguments: '{"query":"jazz"}',
      call_id: 'c1',
    });
    t.socket().emit({
      type: 'response.function_call_arguments.done',
      name: 'get_recommendations',
      arguments: '{}',
      call_id: 'c2',
    });
    await flush();
    expect(t.tools).toEqual(['search_music {"query":"jazz"}', 'get_recommendations {}']);
    expect(t.socket().sent).toEqual([
      {
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: 'c1', output: '{"songs":[]}' },
      },
      {
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: 'c2', output: '{"songs":[]}' },
      },
      { type: 'response.create' },
    ]);
  });

  it('a tool that finishes after Disconnect sends nothing', async () => {
    let finish: (v: string) => void = () => {};
    const t = setup({ tool: () => new Promise((r) => (finish = r)) });
    t.session.connect();
    const socket = t.socket();
    socket.open();
    socket.emit({
      type: 'response.function_call_arguments.done',
      name: 'search_music',
      arguments: '{}',
      call_id: 'c1',
    });
    t.session.disconnect();
    finish('{}');
    await flush();
    expect(socket.sent).toEqual([]);
  });

  it('Disconnect closes the socket normally, releases the audio and returns to Not connected', async () => {
    const t = setup();
    t.session.connect();
    const socket = t.socket();
    socket.open();
    socket.emit(created());
    await flush();
    t.session.disconnect();
    expect(socket.closedWith).toBe(1000);
    expect(t.audio().closed).toBe(true);
    expect(t.state()).toMatchObject({ connection: 'disconnected', microphone: false });
    expect(companionStatusText(t.state())).toBe('Not connected');
    // What the old socket still says changes nothing; no error toast for our own close.
    socket.emit({ type: 'input_audio_buffer.speech_started' });
    expect(t.state().listening).toBe(false);
    expect(t.notices).toEqual(['connected']);
    expect(t.session.active).toBe(false);
  });

  it('a socket error shows one Connection Error toast, however the close follows', () => {
    const t = setup();
    t.session.connect();
    t.socket().onerror?.({});
    t.socket().serverClose(1006);
    expect(t.notices).toEqual(['connection error']);
    expect(t.state().connection).toBe('disconnected');
    expect(t.audio().closed).toBe(true);
  });

  it.each([companionCloseCodes.signedOut, companionCloseCodes.notSubscriber, 1008])(
    'the server closing with %i is a connection error',
    (code) => {
      const t = setup();
      t.session.connect();
      t.socket().open();
      t.socket().serverClose(code);
      expect(t.notices).toEqual(['connected', 'connection error']);
      expect(companionStatusText(t.state())).toBe('Not connected');
    },
  );

  it('a normal close from the server is no error', () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.socket().serverClose(1000);
    expect(t.notices).toEqual(['connected']);
    expect(t.state().connection).toBe('disconnected');
  });

  it('skips frames that are not JSON or not an event it reads', () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.socket().onmessage?.({ data: 'not json' });
    t.socket().emit({ type: 'rate_limits.updated' });
    expect(t.state().connection).toBe('connected');
  });

  it('connects again after a disconnect with a fresh socket and transcript', () => {
    const t = setup();
    t.session.connect();
    t.socket().open();
    t.session.sendText('first');
    t.session.disconnect();
    t.session.connect();
    expect(t.sockets).toHaveLength(2);
    t.socket().open();
    expect(t.state().transcript).toEqual([]);
    expect(t.state().connection).toBe('connected');
  });

  describe('an expired token (4001)', () => {
    it('refreshes the session and goes on over a new socket, transcript kept, no toast', async () => {
      const renewals: number[] = [];
      const t = setup({
        renew: async (openedAt) => {
          renewals.push(openedAt);
          return true;
        },
      });
      const before = Date.now();
      t.session.connect();
      t.socket().open();
      t.session.sendText('hello');
      const first = t.socket();
      first.serverClose(companionCloseCodes.sessionExpired);
      expect(t.state().connection).toBe('connecting');
      expect(t.audio().closed).toBe(true);
      await flush();
      expect(renewals).toHaveLength(1);
      expect(renewals[0]).toBeGreaterThanOrEqual(before);
      expect(t.sockets).toHaveLength(2);
      t.socket().open();
      expect(companionStatusText(t.state())).toBe('Ready to help');
      expect(t.state().transcript.map((l) => l.text)).toEqual(['hello']);
      expect(t.notices).toEqual(['connected']);
      expect(t.audio().closed).toBe(false);
    });

    it('a refresh that fails ends the conversation with the Connection Error toast', async () => {
      const t = setup({ renew: async () => false });
      t.session.connect();
      t.socket().open();
      t.socket().serverClose(companionCloseCodes.sessionExpired);
      await flush();
      expect(t.sockets).toHaveLength(1);
      expect(t.state().connection).toBe('disconnected');
      expect(t.notices).toEqual(['connected', 'connection error']);
    });

    it('a socket closed so before it opened is a failure, not a loop of renewals', async () => {
      let renewed = 0;
      const t = setup({ renew: async () => (renewed++, true) });
      t.session.connect();
      t.socket().serverClose(companionCloseCodes.sessionExpired);
      await flush();
      expect(renewed).toBe(0);
      expect(t.notices).toEqual(['connection error']);
      expect(t.state().connection).toBe('disconnected');
    });

    it('Disconnect during the refresh opens no new socket', async () => {
      let finish: (ok: boolean) => void = () => {};
      const t = setup({ renew: () => new Promise((r) => (finish = r)) });
      t.session.connect();
      t.socket().open();
      t.socket().serverClose(companionCloseCodes.sessionExpired);
      expect(t.session.active).toBe(true);
      t.session.disconnect();
      expect(t.state().connection).toBe('disconnected');
      finish(true);
      await flush();
      expect(t.sockets).toHaveLength(1);
      expect(t.session.active).toBe(false);
      expect(t.notices).toEqual(['connected']);
    });
  });
});
