// One conversation with the AI companion over its socket (spec §7): the socket's events drive
// the panel's state machine, session.created starts the microphone, assistant audio is
// played, tool calls are run and answered. The socket, the audio, the tools and the toasts
// come in, so the whole exchange is tested with a fake socket.
import {
  companionCloseCodes,
  serverEvent,
  type CompanionClientEvent,
  type CompanionServerEvent,
} from '@/contracts/companion.contract.ts';
import type { CompanionEvent } from '@/core/ai/companion-state.ts';

/**
 * The part of the browser's WebSocket the session uses. Its handlers take the DOM's event
 * types (CloseEvent is no Node global), hence `any`; the session reads data, code and reason.
 */
export interface CompanionSocket {
  readonly readyState: number;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** WebSocket.OPEN, without reading the browser's global in tests. */
const OPEN = 1;

/** The microphone and the speakers of one conversation. */
export interface CompanionAudio {
  /** Starts capturing; each 4096-sample frame arrives base64-encoded. Rejects when refused. */
  startMicrophone(onFrame: (base64: string) => void): Promise<void>;
  /** Plays a base64 PCM delta after what is already queued, without a gap. */
  play(base64: string): void;
  /** Stops what is playing and queued (the user started speaking over the answer). */
  interrupt(): void;
  /** Releases the microphone and the audio graph. */
  close(): void;
}

export interface CompanionNotices {
  connected(): void;
  connectionError(): void;
  /** The microphone could not start: the message, when there is one. */
  startFailed(message: string | undefined): void;
}

export interface CompanionSessionDeps {
  openSocket(): CompanionSocket;
  /** Made when Start is pressed, so the browser lets its audio play (a user gesture). */
  createAudio(): CompanionAudio;
  runTool(name: string, argumentsJson: string): Promise<string>;
  /**
   * Refreshes the session cookie (unless refreshed since `openedAt`, ms); true when the
   * session goes on.
   */
  renewSession?: (openedAt: number) => Promise<boolean>;
  dispatch(event: CompanionEvent): void;
  notices: CompanionNotices;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * The one close that is no failure (signed out 4401, not a subscriber 4403, opened elsewhere
 * 4008 and the rest are); an expired token's 4001 is renewed.
 */
const NORMAL_CLOSE = 1000;

export class CompanionSession {
  private socket: CompanionSocket | null = null;
  private audio: CompanionAudio | null = null;
  /** Tool calls still running; response.create waits until every output is sent. */
  private pendingTools = 0;
  private errorShown = false;
  /** Between a socket closed for an expired token and its successor. */
  private renewing = false;

  constructor(private readonly deps: CompanionSessionDeps) {}

  get active(): boolean {
    return this.socket !== null || this.renewing;
  }

  connect(): void {
    if (this.socket || this.renewing) return;
    this.errorShown = false;
    this.deps.dispatch({ type: 'connect' });
    this.openSocket(false);
  }

  /** Disconnect: the socket, the microphone and the speakers, at once. */
  disconnect(): void {
    const socket = this.socket;
    if (this.renewing) {
      this.renewing = false;
      this.end();
    }
    if (!socket) return;
    this.end();
    socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
    socket.close(NORMAL_CLOSE, 'Disconnect');
  }

  private openSocket(renewed: boolean): void {
    this.pendingTools = 0;
    this.audio = this.deps.createAudio();
    let socket: CompanionSocket;
    try {
      socket = this.deps.openSocket();
    } catch (error) {
      this.deps.log?.('Could not open the companion socket', error);
      this.failed();
      this.end();
      return;
    }
    this.socket = socket;
    let openedAt: number | null = null;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      openedAt = Date.now();
      this.deps.dispatch({ type: 'opened' });
      // The same conversation going on after a renewal is no new connection to announce.
      if (!renewed) this.deps.notices.connected();
    };
    socket.onmessage = (message: { data: unknown }) => {
      if (this.socket !== socket) return;
      this.receive(message.data);
    };
    socket.onerror = () => {
      if (this.socket !== socket) return;
      this.failed();
    };
    socket.onclose = ({ code, reason }: { code: number; reason: string }) => {
      if (this.socket !== socket) return;
      // The token it was opened with expired: refresh the cookie and go on. A socket closed so
      // before it ever opened would only fail the same way again.
      const { renewSession } = this.deps;
      if (code === companionCloseCodes.sessionExpired && openedAt !== null && renewSession) {
        const since = openedAt;
        void this.renew(() => renewSession(since));
        return;
      }
      if (code !== NORMAL_CLOSE) {
        this.deps.log?.(`The companion socket closed (${code} ${reason})`);
        this.failed();
      }
      this.end();
    };
  }

  private async renew(renewSession: () => Promise<boolean>): Promise<void> {
    this.socket = null;
    this.audio?.close();
    this.audio = null;
    this.renewing = true;
    this.deps.dispatch({ type: 'reconnect' });
    const renewed = await renewSession().catch(() => false);
    // Disconnect pressed meanwhile: it has ended everything already.
    if (!this.renewing) return;
    this.renewing = false;
    if (!renewed) {
      this.failed();
      this.end();
      return;
    }
    this.openSocket(true);
  }

  /** A typed message: a user turn, then a response. False when not connected. */
  sendText(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed || !this.open()) return false;
    this.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: trimmed }] },
    });
    this.send({ type: 'response.create' });
    this.deps.dispatch({ type: 'user_said', text: trimmed });
    return true;
  }

  private open(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN;
  }

  private send(event: CompanionClientEvent): void {
    if (this.open()) this.socket?.send(JSON.stringify(event));
  }

  /** One failure toast per connection (an error event is followed by its close). */
  private failed(): void {
    if (this.errorShown) return;
    this.errorShown = true;
    this.deps.notices.connectionError();
  }

  private end(): void {
    this.socket = null;
    this.audio?.close();
    this.audio = null;
    this.deps.dispatch({ type: 'closed' });
  }

  private receive(data: unknown): void {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      this.deps.log?.('The companion sent a frame that is not JSON');
      return;
    }
    const parsed = serverEvent.safeParse(json);
    // Events this client does not read (the protocol has more) are skipped.
    if (parsed.success) this.handle(parsed.data);
  }

  private handle(event: CompanionServerEvent): void {
    const { dispatch } = this.deps;
    switch (event.type) {
      case 'session.created':
        dispatch({ type: 'session', speech: event.session.speech });
        if (event.session.speech.input) void this.startMicrophone();
        return;
      case 'session.updated':
        dispatch({ type: 'session', speech: event.session.speech });
        return;
      case 'input_audio_buffer.speech_started':
        // The user talks over the answer: stop it, as one would in a conversation.
        this.audio?.interrupt();
        dispatch({ type: 'speech_started' });
        return;
      case 'input_audio_buffer.speech_stopped':
        dispatch({ type: 'speech_stopped' });
        return;
      case 'conversation.item.input_audio_transcription.completed':
        dispatch({ type: 'user_said', text: event.transcript });
        return;
      case 'response.audio_transcript.delta':
        dispatch({ type: 'assistant_delta', delta: event.delta });
        return;
      case 'response.audio.delta':
        this.audio?.play(event.delta);
        dispatch({ type: 'audio_delta' });
        return;
      case 'response.audio.done':
        dispatch({ type: 'audio_done' });
        return;
      case 'response.function_call_arguments.done':
        void this.answerTool(event.name, event.arguments, event.call_id);
        return;
      case 'response.done':
        dispatch({ type: 'response_done' });
        return;
      case 'error':
        this.deps.log?.(`The companion reported ${event.error.code}: ${event.error.message}`);
        return;
    }
  }

  private async startMicrophone(): Promise<void> {
    const audio = this.audio;
    if (!audio) return;
    try {
      await audio.startMicrophone((base64) => {
        this.send({ type: 'input_audio_buffer.append', audio: base64 });
      });
    } catch (error) {
      // Typed messages still work: the conversation stays connected without a microphone.
      if (this.audio === audio) {
        this.deps.notices.startFailed(error instanceof Error ? error.message : undefined);
      }
      return;
    }
    if (this.audio === audio) this.deps.dispatch({ type: 'microphone', on: true });
  }

  private async answerTool(name: string, argumentsJson: string, callId: string): Promise<void> {
    const socket = this.socket;
    this.pendingTools++;
    const output = await this.deps.runTool(name, argumentsJson);
    if (this.socket !== socket) return;
    this.pendingTools--;
    this.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: callId, output },
    });
    if (this.pendingTools === 0) this.send({ type: 'response.create' });
  }
}
