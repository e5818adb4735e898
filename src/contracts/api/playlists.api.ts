import {
  addTrackBody,
  createPlaylistBody,
  moveTrackBody,
  myPlaylists,
  playlistDetail,
  playlistIdParams,
  playlistOrder,
  playlistSummary,
  playlistTrackParams,
  trackAdded,
  updatePlaylistBody,
} from '../playlists.contract.ts';
import { defineRoute } from './define-route.ts';

export const playlistsApi = {
  mine: defineRoute({ method: 'GET', path: '/api/me/playlists', response: myPlaylists }),
  create: defineRoute({
    method: 'POST',
    path: '/api/playlists',
    body: createPlaylistBody,
    status: 201,
    response: playlistSummary,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/playlists/:id',
    params: playlistIdParams,
    response: playlistDetail,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/api/playlists/:id',
    params: playlistIdParams,
    body: updatePlaylistBody,
    response: playlistSummary,
  }),
  remove: defineRoute({ method: 'DELETE', path: '/api/playlists/:id', params: playlistIdParams }),
  addTrack: defineRoute({
    method: 'POST',
    path: '/api/playlists/:id/tracks',
    params: playlistIdParams,
    body: addTrackBody,
    status: 201,
    response: trackAdded,
  }),
  moveTrack: defineRoute({
    method: 'PATCH',
    path: '/api/playlists/:id/tracks/:songId',
    params: playlistTrackParams,
    body: moveTrackBody,
    response: playlistOrder,
  }),
  removeTrack: defineRoute({
    method: 'DELETE',
    path: '/api/playlists/:id/tracks/:songId',
    params: playlistTrackParams,
  }),
};
