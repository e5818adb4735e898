// The AI companion panel's state (spec §2, §4): not connected, connected once the socket opens,
// listening while the user speaks, speaking while assistant audio arrives, then disconnected;
// and the transcript, of which the panel shows the last few lines (spec §9). Pure: the socket,
// the microphone and the speakers feed it events.

/** Spec §9: the transcript shows the last 5 lines. */
export const TRANSCRIPT_LINES = 5;

export type CompanionConnection = 'disconnected' | 'connecting' | 'connected';

export interface TranscriptLine {
  /** Stable across an answer's deltas, for React keys. */
  id: number;
  role: 'user' | 'assistant';
  text: string;
}

export interface CompanionState {
  connection: CompanionConnection;
  /** The user is speaking (speech_started → speech_stopped). */
  listening: boolean;
  /** Assistant audio is arriving or playing (audio.delta → audio.done / response.done). */
  speaking: boolean;
  /** Null until session.created says whether the server hears and speaks. */
  speech: { input: boolean; output: boolean } | null;
  /** The microphone is capturing. */
  microphone: boolean;
  /** The last TRANSCRIPT_LINES lines, oldest first. */
  transcript: TranscriptLine[];
  /** The answer's line the next transcript delta extends; null between answers. */
  openAnswer: number | null;
  nextLineId: number;
}

export type CompanionEvent =
  | { type: 'connect' }
  /** The same conversation on a new socket (its token expired): the transcript stays. */
  | { type: 'reconnect' }
  | { type: 'opened' }
  | { type: 'session'; speech: { input: boolean; output: boolean } }
  | { type: 'microphone'; on: boolean }
  | { type: 'speech_started' }
  | { type: 'speech_stopped' }
  | { type: 'user_said'; text: string }
  | { type: 'assistant_delta'; delta: string }
  | { type: 'audio_delta' }
  | { type: 'audio_done' }
  | { type: 'response_done' }
  | { type: 'closed' };

export const initialCompanionState: CompanionState = {
  connection: 'disconnected',
  listening: false,
  speaking: false,
  speech: null,
  microphone: false,
  transcript: [],
  openAnswer: null,
  nextLineId: 1,
};

const lastLines = (lines: TranscriptLine[]) => lines.slice(-TRANSCRIPT_LINES);

function addLine(state: CompanionState, role: TranscriptLine['role'], text: string) {
  const id = state.nextLineId;
  return {
    transcript: lastLines([...state.transcript, { id, role, text }]),
    nextLineId: id + 1,
    lineId: id,
  };
}

export function companionReducer(state: CompanionState, event: CompanionEvent): CompanionState {
  // Events of a socket that is gone (a late message after Disconnect) change nothing.
  if (state.connection === 'disconnected' && event.type !== 'connect') return state;
  switch (event.type) {
    case 'connect':
      if (state.connection !== 'disconnected') return state;
      // A new conversation starts with an empty transcript.
      return { ...initialCompanionState, connection: 'connecting', nextLineId: state.nextLineId };
    case 'reconnect':
      return {
        ...state,
        connection: 'connecting',
        listening: false,
        speaking: false,
        microphone: false,
        openAnswer: null,
      };
    case 'opened':
      return { ...state, connection: 'connected' };
    case 'session':
      return { ...state, speech: event.speech };
    case 'microphone':
      return { ...state, microphone: event.on, listening: event.on && state.listening };
    case 'speech_started':
      return { ...state, listening: true };
    case 'speech_stopped':
      return { ...state, listening: false };
    case 'user_said': {
      const text = event.text.trim();
      if (!text) return state;
      const { transcript, nextLineId } = addLine(state, 'user', text);
      // What the user says after an answer begins belongs below it; the next delta starts anew.
      return { ...state, transcript, nextLineId, openAnswer: null };
    }
    case 'assistant_delta': {
      if (!event.delta) return state;
      const open = state.openAnswer;
      if (open !== null && state.transcript.some((l) => l.id === open)) {
        return {
          ...state,
          transcript: state.transcript.map((l) =>
            l.id === open ? { ...l, text: l.text + event.delta } : l,
          ),
        };
      }
      const { transcript, nextLineId, lineId } = addLine(state, 'assistant', event.delta);
      return { ...state, transcript, nextLineId, openAnswer: lineId };
    }
    case 'audio_delta':
      return state.speaking ? state : { ...state, speaking: true };
    case 'audio_done':
      return { ...state, speaking: false };
    case 'response_done':
      return { ...state, speaking: false, openAnswer: null };
    case 'closed':
      return {
        ...state,
        connection: 'disconnected',
        listening: false,
        speaking: false,
        microphone: false,
        openAnswer: null,
      };
  }
}

export type CompanionStatusText = 'Not connected' | 'Ready to help' | 'Listening...';

/** Spec §2's status text. Connecting is still 'Not connected': nothing can be said yet. */
export function companionStatusText(state: CompanionState): CompanionStatusText {
  if (state.connection !== 'connected') return 'Not connected';
  return state.listening ? 'Listening...' : 'Ready to help';
}

/** The session said it neither hears nor speaks, or one of them: the panel says 'text only'. */
export function isTextOnly(state: CompanionState): boolean {
  return state.speech !== null && (!state.speech.input || !state.speech.output);
}
