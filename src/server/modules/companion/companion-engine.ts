import type {
  CompanionClientEvent,
  CompanionServerEvent,
} from '../../../contracts/companion.contract.ts';

/*
 * What the socket hands an engine (the local one or the OpenAI relay): client events already
 * checked against the contract and the limits, audio already decoded. The engine answers
 * through the sink, and ends the socket through it when it cannot go on.
 */

export type CheckedClientEvent =
  | (Extract<CompanionClientEvent, { type: 'input_audio_buffer.append' }> & {
      /** The frame's 24 kHz mono samples. */
      samples: Int16Array;
    })
  | Exclude<CompanionClientEvent, { type: 'input_audio_buffer.append' }>;

export type EngineSink = {
  send(event: CompanionServerEvent): void;
  /** Sends an `error` event, then closes the socket with `code`. */
  fail(code: number, error: { code: string; message: string }): void;
};

export type CompanionEngine = {
  handle(event: CheckedClientEvent): void;
  /** The socket closed: stop work, release the upstream. */
  close(): void;
};

export type EngineFactory = {
  open(sink: EngineSink, session: { id: string; userId: string }): CompanionEngine;
};
