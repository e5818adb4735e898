import { z } from 'zod';
import {
  LISTENBRAINZ_TOKEN_MAX,
  SCROBBLE_SERVICES,
  scrobbleMessages,
} from '../core/validation/scrobbling.rules.ts';

/*
 * Scrobbling (docs/decisions/0038): a listener's ListenBrainz and Last.fm connections. Plays
 * are sent by the server's job queue, never by the browser; tokens and session keys never
 * leave the server.
 */

export const scrobbleService = z.enum(SCROBBLE_SERVICES);

/** One connection as its listener sees it. */
export const scrobbleConnection = z.object({
  service: scrobbleService,
  status: z
    .enum(['connected', 'disconnected'])
    .describe('disconnected: the service refused the token or session (revoked); reconnect'),
  account_name: z.string().nullable().describe('the account name the service reported'),
  last_error: z.string().nullable(),
  connected_at: z.string().nullable().describe('ISO timestamp'),
  held: z
    .number()
    .int()
    .describe('scrobbles kept while disconnected; sent when the listener reconnects'),
});
export type ScrobbleConnection = z.infer<typeof scrobbleConnection>;

/** GET /api/me/scrobbling. */
export const scrobblingSettings = z.object({
  listenbrainz: scrobbleConnection.nullable(),
  lastfm: scrobbleConnection.nullable(),
  lastfm_available: z
    .boolean()
    .describe("whether this server has Last.fm's API key and secret (Last.fm offered)"),
  lastfm_pending: z
    .boolean()
    .describe('a Last.fm sign-in was started and waits for the listener to allow access'),
});
export type ScrobblingSettings = z.infer<typeof scrobblingSettings>;

/** PUT /api/me/scrobbling/listenbrainz. */
export const listenBrainzConnectBody = z.strictObject({
  token: z
    .string({ error: scrobbleMessages.tokenRequired })
    .trim()
    .min(1, scrobbleMessages.tokenRequired)
    .max(LISTENBRAINZ_TOKEN_MAX, scrobbleMessages.invalidListenBrainzToken)
    .regex(/^[\x21-\x7e]+$/, scrobbleMessages.invalidListenBrainzToken)
    .describe('the ListenBrainz user token (listenbrainz.org/settings)'),
});
export type ListenBrainzConnectBody = z.infer<typeof listenBrainzConnectBody>;

/** POST /api/me/scrobbling/lastfm/start. */
export const lastfmStarted = z.object({
  auth_url: z.string().describe("Last.fm's page where the listener allows Canto's access"),
});
export type LastfmStarted = z.infer<typeof lastfmStarted>;
