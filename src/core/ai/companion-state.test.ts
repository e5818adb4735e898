import { describe, expect, it } from 'vitest';
import {
  companionReducer,
  companionStatusText,
  initialCompanionState,
  isTextOnly,
  TRANSCRIPT_LINES,
  type CompanionEvent,
  type CompanionState,
} from './companion-state.ts';

const run = (s: CompanionState, ...events: CompanionEvent[]) => events.reduce(companionReducer, s);
const connected = () => run(initialCompanionState, { type: 'connect' }, { type: 'opened' });
const texts = (s: CompanionState) => s.transcript.map((l) => `${l.role}: ${l.text}`);

describe('companion state machine (spec §4)', () => {
  it('is not connected, then connected once the socket opens', () => {
    expect(companionStatusText(initialCompanionState)).toBe('Not connected');
    const connecting = run(initialCompanionState, { type: 'connect' });
    expect(connecting.connection).toBe('connecting');
    expect(companionStatusText(connecting)).toBe('Not connected');
    const open = run(connecting, { type: 'opened' });
    expect(open.connection).toBe('connected');
    expect(companionStatusText(open)).toBe('Ready to help');
  });

  it('listens while the user speaks', () => {
    const s = run(connected(), { type: 'speech_started' });
    expect(s.listening).toBe(true);
    expect(companionStatusText(s)).toBe('Listening...');
    const after = run(s, { type: 'speech_stopped' });
    expect(after.listening).toBe(false);
    expect(companionStatusText(after)).toBe('Ready to help');
  });

  it('speaks while assistant audio arrives, until the audio or the response is done', () => {
    const s = run(connected(), { type: 'audio_delta' });
    expect(s.speaking).toBe(true);
    expect(run(s, { type: 'audio_done' }).speaking).toBe(false);
    expect(run(s, { type: 'response_done' }).speaking).toBe(false);
  });

  it('closing drops every indicator and returns to Not connected', () => {
    const busy = run(
      connected(),
      { type: 'microphone', on: true },
      { type: 'speech_started' },
      { type: 'audio_delta' },
    );
    const closed = run(busy, { type: 'closed' });
    expect(closed).toMatchObject({
      connection: 'disconnected',
      listening: false,
      speaking: false,
      microphone: false,
    });
    expect(companionStatusText(closed)).toBe('Not connected');
  });

  it('ignores what a closed socket still delivers', () => {
    const closed = run(connected(), { type: 'closed' });
    expect(
      run(
        closed,
        { type: 'opened' },
        { type: 'speech_started' },
        { type: 'user_said', text: 'late' },
      ),
    ).toBe(closed);
  });

  it('reconnecting (a renewed token) keeps the transcript and drops the indicators', () => {
    const busy = run(
      connected(),
      { type: 'user_said', text: 'hello' },
      { type: 'microphone', on: true },
      { type: 'speech_started' },
      { type: 'audio_delta' },
    );
    const again = run(busy, { type: 'reconnect' });
    expect(again).toMatchObject({
      connection: 'connecting',
      listening: false,
      speaking: false,
      microphone: false,
    });
    expect(again.transcript).toEqual(busy.transcript);
    expect(companionStatusText(run(again, { type: 'opened' }))).toBe('Ready to help');
  });

  it('a new connection starts with an empty transcript', () => {
    const before = run(connected(), { type: 'user_said', text: 'hello' }, { type: 'closed' });
    expect(before.transcript).toHaveLength(1);
    const again = run(before, { type: 'connect' });
    expect(again.transcript).toEqual([]);
    expect(again.connection).toBe('connecting');
  });

  it('says text only when the session has no speech input or output', () => {
    expect(isTextOnly(connected())).toBe(false);
    const both = { type: 'session', speech: { input: true, output: true } } as const;
    expect(isTextOnly(run(connected(), both))).toBe(false);
    const noInput = { type: 'session', speech: { input: false, output: true } } as const;
    expect(isTextOnly(run(connected(), noInput))).toBe(true);
    const noOutput = { type: 'session', speech: { input: true, output: false } } as const;
    expect(isTextOnly(run(connected(), noOutput))).toBe(true);
  });
});

describe('companion transcript (spec §9: last 5 lines)', () => {
  it('accumulates an answer’s deltas in one line until the response is done', () => {
    const s = run(
      connected(),
      { type: 'user_said', text: 'play something jazzy' },
      { type: 'assistant_delta', delta: 'Playing ' },
      { type: 'assistant_delta', delta: 'Blue Train.' },
      { type: 'response_done' },
      { type: 'assistant_delta', delta: 'Anything else?' },
    );
    expect(texts(s)).toEqual([
      'user: play something jazzy',
      'assistant: Playing Blue Train.',
      'assistant: Anything else?',
    ]);
  });

  it('keeps only the last 5 lines, oldest dropped first', () => {
    const events: CompanionEvent[] = [];
    for (let i = 1; i <= 7; i++) {
      events.push({ type: 'user_said', text: `q${i}` });
      events.push({ type: 'assistant_delta', delta: `a${i}` }, { type: 'response_done' });
    }
    const s = run(connected(), ...events);
    expect(s.transcript).toHaveLength(TRANSCRIPT_LINES);
    expect(texts(s)).toEqual([
      'assistant: a5',
      'user: q6',
      'assistant: a6',
      'user: q7',
      'assistant: a7',
    ]);
    expect(new Set(s.transcript.map((l) => l.id)).size).toBe(TRANSCRIPT_LINES);
  });

  it('an answer still streaming keeps growing after older lines fall off', () => {
    let s = run(connected(), { type: 'assistant_delta', delta: 'Hi' });
    for (let i = 0; i < 3; i++) s = run(s, { type: 'user_said', text: `u${i}` });
    // The user spoke: the next delta starts a new line.
    s = run(s, { type: 'assistant_delta', delta: 'Sure' }, { type: 'assistant_delta', delta: '!' });
    expect(texts(s).at(-1)).toBe('assistant: Sure!');
    expect(s.transcript).toHaveLength(5);
  });

  it('a blank transcription adds no line', () => {
    const s = run(connected(), { type: 'user_said', text: '   ' });
    expect(s.transcript).toEqual([]);
  });
});
