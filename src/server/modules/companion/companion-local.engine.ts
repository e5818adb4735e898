import {
  companionToolOutputs,
  COMPANION_FRAME_SAMPLES,
  COMPANION_SAMPLE_RATE,
  type CompanionToolName,
} from '../../../contracts/companion.contract.ts';
import {
  firstStep,
  nextStep,
  parseIntent,
  type Plan,
  type Step,
  type ToolOutput,
} from '../../../core/ai/companion-intent.ts';
import { pcm16ToBytes, resampleLinear } from '../../../core/ai/pcm.ts';
import { createVad, type Vad } from '../../../core/ai/vad.ts';
import type { Log } from '../../log.ts';
import type { CatalogueNames, Speech } from './companion-speech.ts';
import type { CompanionEngine, EngineFactory, EngineSink } from './companion-engine.ts';

/*
 * AI_PROVIDER=local (docs/decisions/0033): no model, no network. Speech is cut into utterances
 * by energy (core/ai/vad.ts) and heard by pocketsphinx; typed and heard sentences become an
 * intent (core/ai/companion-intent.ts) whose plan asks the browser for tools one at a time and
 * ends in an answer, written and, with espeak-ng, spoken.
 */

type PendingCall = { id: string; name: CompanionToolName };

export function createLocalEngines(deps: {
  speech: Speech;
  log: Log;
  /** The catalogue's titles and artists the recognizer listens for (none: commands only). */
  names?: () => Promise<CatalogueNames>;
}): EngineFactory {
  const { speech, log } = deps;
  const names = async () =>
    deps.names?.().catch((error: unknown) => {
      log.warn({ err: error }, 'companion: the catalogue names could not be read');
      return undefined;
    });
  return {
    open(sink: EngineSink, session) {
      const vad: Vad | null = speech.input
        ? createVad({ sampleRate: COMPANION_SAMPLE_RATE })
        : null;
      let closed = false;
      let calls = 0;
      /** Typed text waiting for its response.create. */
      let typed: string | null = null;
      let plan: Plan | null = null;
      let pending: PendingCall | null = null;
      /** The answered output of the pending call, waiting for its response.create. */
      let answered: ToolOutput | null = null;
      /** Utterances are heard one after the other. */
      let hearing: Promise<void> = Promise.resolve();
      /** Each turn's number: a newer turn makes an older one's late work moot. */
      let turn = 0;

      const send: EngineSink['send'] = (event) => {
        if (!closed) sink.send(event);
      };
      send({
        type: 'session.created',
        session: { id: session.id, speech: { input: speech.input, output: speech.output } },
      });

      async function say(text: string, ofTurn: number) {
        send({ type: 'response.audio_transcript.delta', delta: text });
        if (speech.output) {
          const samples = await speech.synthesize(text).catch((error: unknown) => {
            log.warn({ err: error }, 'companion: espeak-ng failed');
            return null;
          });
          if (samples && ofTurn === turn) {
            for (let at = 0; at < samples.length; at += COMPANION_FRAME_SAMPLES) {
              const chunk = samples.subarray(at, at + COMPANION_FRAME_SAMPLES);
              send({
                type: 'response.audio.delta',
                delta: Buffer.from(pcm16ToBytes(chunk)).toString('base64'),
              });
            }
            send({ type: 'response.audio.done' });
          }
        }
        if (ofTurn === turn) send({ type: 'response.done' });
      }

      function take(step: Step, ofTurn: number) {
        if (step.kind === 'say') {
          plan = null;
          pending = null;
          void say(step.text, ofTurn);
          return;
        }
        pending = { id: `call_${session.id.slice(0, 8)}_${++calls}`, name: step.call.name };
        send({
          type: 'response.function_call_arguments.done',
          name: step.call.name,
          arguments: JSON.stringify(step.call.arguments),
          call_id: pending.id,
        });
        send({ type: 'response.done' });
      }

      function startTurn(text: string) {
        turn++;
        answered = null;
        const intent = parseIntent(text);
        plan = { intent };
        take(firstStep(intent), turn);
      }

      function readOutput(call: PendingCall, output: string): ToolOutput {
        let json: unknown;
        try {
          json = JSON.parse(output);
        } catch {
          return { name: call.name, failed: 'the answer was not JSON' };
        }
        const parsed = companionToolOutputs[call.name].safeParse(json);
        if (parsed.success) return { name: call.name, ...parsed.data } as ToolOutput;
        const error = (json as { error?: unknown } | null)?.error;
        return {
          name: call.name,
          failed: typeof error === 'string' ? error : 'an unexpected answer',
        };
      }

      function hear(audio: Int16Array) {
        hearing = hearing.then(async () => {
          const words = await speech
            .transcribe(resampleLinear(audio, COMPANION_SAMPLE_RATE, 16_000), await names())
            .catch((error: unknown) => {
              log.warn({ err: error }, 'companion: pocketsphinx failed');
              return '';
            });
          if (closed) return;
          send({
            type: 'conversation.item.input_audio_transcription.completed',
            transcript: words,
          });
          if (words) startTurn(words);
          else void say("Sorry, I didn't catch that.", ++turn);
        });
      }

      return {
        handle(event) {
          if (closed) return;
          switch (event.type) {
            case 'input_audio_buffer.append': {
              if (!vad) return;
              for (const happened of vad.push(event.samples)) {
                if (happened.type === 'speech_started')
                  send({ type: 'input_audio_buffer.speech_started' });
                else {
                  send({ type: 'input_audio_buffer.speech_stopped' });
                  hear(happened.audio);
                }
              }
              return;
            }
            case 'conversation.item.create': {
              const { item } = event;
              if (item.type === 'message') {
                typed = item.content.map((c) => c.text).join(' ');
                return;
              }
              if (!pending || item.call_id !== pending.id) {
                send({
                  type: 'error',
                  error: {
                    code: 'unknown_call',
                    message: `No tool call ${item.call_id} is waiting for an answer`,
                  },
                });
                return;
              }
              answered = readOutput(pending, item.output);
              pending = null;
              return;
            }
            case 'response.create': {
              if (typed !== null) {
                const text = typed;
                typed = null;
                startTurn(text);
              } else if (answered && plan) {
                const output = answered;
                answered = null;
                take(nextStep(plan, output), turn);
              }
              return;
            }
          }
        },
        close() {
          closed = true;
        },
      } satisfies CompanionEngine;
    },
  };
}
