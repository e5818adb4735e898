import { likedSongIds, likedSongParams, likedSongs } from '../library.contract.ts';
import { defineRoute } from './define-route.ts';

export const libraryApi = {
  like: defineRoute({
    method: 'PUT',
    path: '/api/me/liked-songs/:songId',
    params: likedSongParams,
  }),
  unlike: defineRoute({
    method: 'DELETE',
    path: '/api/me/liked-songs/:songId',
    params: likedSongParams,
  }),
  likedSongs: defineRoute({ method: 'GET', path: '/api/me/liked-songs', response: likedSongs }),
  likedSongIds: defineRoute({
    method: 'GET',
    path: '/api/me/liked-songs/ids',
    response: likedSongIds,
  }),
};
