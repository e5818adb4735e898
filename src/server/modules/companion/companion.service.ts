import { randomUUID } from 'node:crypto';
import {
  clientEvent,
  companionCloseCodes,
  type CompanionServerEvent,
} from '../../../contracts/companion.contract.ts';
import { needsStepUp } from '../../../core/auth/aal.ts';
import { pcm16FromBytes } from '../../../core/ai/pcm.ts';
import type { Principal } from '../../http/access-policy.ts';
import type { Log } from '../../log.ts';
import type { CheckedClientEvent, CompanionEngine, EngineFactory } from './companion-engine.ts';

/*
 * One companion socket from handshake to close (docs/decisions/0033): who may open it (a
 * signed-in premium subscriber; else 4401 or 4403 and no engine, so nothing goes upstream),
 * what it may send (contract events as JSON text, 16-bit PCM, at a bounded rate; else 1008;
 * frames over 64 KiB are closed 1009 by the socket server itself), how many a user holds,
 * and the hand-over of checked events to the engine.
 */

/** What the service needs of a `ws` WebSocket. */
export type CompanionSocket = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
};

export type CompanionLimits = {
  /** Sockets one user holds at once; the oldest is closed beyond (4008). */
  maxSocketsPerUser: number;
  /** Messages a socket may send per second, sustained, and in a burst. */
  perSecond: number;
  burst: number;
};

export const defaultCompanionLimits: CompanionLimits = {
  maxSocketsPerUser: 2,
  // Audio comes ~6 frames a second (4096 samples at 24 kHz); a client sending in smaller
  // frames still fits, a flood does not.
  perSecond: 50,
  burst: 100,
};

const POLICY = 1008;
const SOCKET_OPEN = 1;
/** Messages held while the handshake's checks run (the client waits for session.created). */
const MAX_EARLY_MESSAGES = 64;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function createCompanionService(deps: {
  engines: EngineFactory;
  isSubscribed(userId: string): Promise<boolean>;
  limits: CompanionLimits;
  log: Log;
  /** Elapsed time for the message budget (ms). */
  now?: () => number;
}) {
  const { engines, limits, log } = deps;
  const now = deps.now ?? (() => performance.now());
  const byUser = new Map<string, CompanionSocket[]>();

  function close(socket: CompanionSocket, code: number, reason: string) {
    if (socket.readyState === SOCKET_OPEN) socket.close(code, reason);
  }

  /** The event, checked; or why it is refused. */
  function check(data: Buffer, isBinary: boolean): CheckedClientEvent | string {
    if (isBinary) return 'Frames must be JSON text';
    let json: unknown;
    try {
      json = JSON.parse(data.toString('utf8'));
    } catch {
      return 'Invalid JSON';
    }
    const parsed = clientEvent.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown } | null)?.type;
      return typeof type === 'string'
        ? `Unknown or malformed event: ${type.slice(0, 80)}`
        : 'Event without a type';
    }
    const event = parsed.data;
    if (event.type !== 'input_audio_buffer.append') return event;
    if (event.audio.length % 4 !== 0 || !BASE64.test(event.audio))
      return 'Audio must be base64 16-bit PCM';
    const samples = pcm16FromBytes(new Uint8Array(Buffer.from(event.audio, 'base64')));
    if (!samples) return 'Audio must be 16-bit PCM (an even number of bytes)';
    return { ...event, samples };
  }

  return {
    /**
     * Takes a just-upgraded socket; `principal` is who the handshake's cookie named, and
     * `expiresAt` (ms since the epoch) when its access token expires: the socket closes then
     * (4001), so a signed-out or revoked session talks no longer than a token lives.
     */
    attach(socket: CompanionSocket, principal: Principal | null, expiresAt = 0) {
      let engine: CompanionEngine | null = null;
      let ended = false;
      const early: [Buffer, boolean][] = [];
      let tokens = limits.burst;
      let refilledAt = now();

      const handle = (data: Buffer, isBinary: boolean) => {
        const t = now();
        tokens = Math.min(limits.burst, tokens + ((t - refilledAt) / 1000) * limits.perSecond);
        refilledAt = t;
        if (tokens < 1) return close(socket, POLICY, 'Too many messages');
        tokens -= 1;
        const checked = check(data, isBinary);
        if (typeof checked === 'string') return close(socket, POLICY, checked);
        engine!.handle(checked);
      };

      // Attached at once: frames sent before the checks finish are not lost.
      socket.on('message', (data, isBinary) => {
        if (ended) return;
        if (engine) return handle(data, isBinary);
        if (early.length >= MAX_EARLY_MESSAGES) return close(socket, POLICY, 'Too many messages');
        early.push([data, isBinary]);
      });
      let expiry: NodeJS.Timeout | undefined;
      socket.on('close', () => {
        ended = true;
        clearTimeout(expiry);
        engine?.close();
        if (!principal) return;
        const held = byUser.get(principal.userId)?.filter((s) => s !== socket) ?? [];
        if (held.length) byUser.set(principal.userId, held);
        else byUser.delete(principal.userId);
      });

      void (async () => {
        if (!principal || needsStepUp(principal.aal, principal.hasVerifiedFactor))
          return close(socket, companionCloseCodes.signedOut, 'Sign in to talk to the companion');
        const subscribed = await deps.isSubscribed(principal.userId).catch((error: unknown) => {
          log.error({ err: error }, 'companion: the subscription check failed');
          return null;
        });
        if (subscribed === null) return close(socket, 1011, 'Try again later');
        if (!subscribed)
          return close(
            socket,
            companionCloseCodes.notSubscriber,
            'The AI companion is a premium feature',
          );
        if (ended) return;
        const left = expiresAt - Date.now();
        if (left <= 0) return close(socket, companionCloseCodes.sessionExpired, 'Session expired');
        expiry = setTimeout(
          () => close(socket, companionCloseCodes.sessionExpired, 'Session expired'),
          Math.min(left, 2_147_483_647),
        );
        const held = byUser.get(principal.userId) ?? [];
        held.push(socket);
        byUser.set(principal.userId, held);
        while (held.length > limits.maxSocketsPerUser)
          close(held.shift()!, companionCloseCodes.openedElsewhere, 'Opened elsewhere');
        engine = engines.open(
          {
            send: (event: CompanionServerEvent) => {
              if (socket.readyState === SOCKET_OPEN) socket.send(JSON.stringify(event));
            },
            fail: (code, error) => {
              if (socket.readyState !== SOCKET_OPEN) return;
              socket.send(JSON.stringify({ type: 'error', error } satisfies CompanionServerEvent));
              socket.close(code, error.message.slice(0, 120));
            },
          },
          { id: randomUUID(), userId: principal.userId },
        );
        for (const [data, isBinary] of early.splice(0)) {
          if (ended || socket.readyState !== SOCKET_OPEN) break;
          handle(data, isBinary);
        }
      })();
    },
  };
}
