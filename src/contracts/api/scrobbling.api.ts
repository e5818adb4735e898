import {
  lastfmStarted,
  listenBrainzConnectBody,
  scrobbleConnection,
  scrobblingSettings,
} from '../scrobbling.contract.ts';
import { defineRoute } from './define-route.ts';

export const scrobblingApi = {
  settings: defineRoute({
    method: 'GET',
    path: '/api/me/scrobbling',
    response: scrobblingSettings,
  }),
  connectListenBrainz: defineRoute({
    method: 'PUT',
    path: '/api/me/scrobbling/listenbrainz',
    body: listenBrainzConnectBody,
    response: scrobbleConnection,
  }),
  disconnectListenBrainz: defineRoute({
    method: 'DELETE',
    path: '/api/me/scrobbling/listenbrainz',
  }),
  startLastfm: defineRoute({
    method: 'POST',
    path: '/api/me/scrobbling/lastfm/start',
    response: lastfmStarted,
  }),
  finishLastfm: defineRoute({
    method: 'POST',
    path: '/api/me/scrobbling/lastfm/finish',
    response: scrobbleConnection,
  }),
  disconnectLastfm: defineRoute({
    method: 'DELETE',
    path: '/api/me/scrobbling/lastfm',
  }),
};
