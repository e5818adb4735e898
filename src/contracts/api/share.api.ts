import {
  oembedQuery,
  oembedResponse,
  sharedPlaylist,
  sharedSong,
  shareIdParams,
} from '../share.contract.ts';
import { defineRoute } from './define-route.ts';

/** Public (signed in or out): what share links, song pages and embeds show. */
export const shareApi = {
  song: defineRoute({
    method: 'GET',
    path: '/api/share/songs/:id',
    params: shareIdParams,
    response: sharedSong,
  }),
  playlist: defineRoute({
    method: 'GET',
    path: '/api/share/playlists/:id',
    params: shareIdParams,
    response: sharedPlaylist,
  }),
  /** A song's 30 s preview, public for a song anyone may see; Range like /media. */
  preview: defineRoute({
    method: 'GET',
    path: '/api/share/songs/:id/preview',
    params: shareIdParams,
    produces: 'audio',
  }),
  oembed: defineRoute({
    method: 'GET',
    path: '/api/oembed',
    query: oembedQuery,
    response: oembedResponse,
  }),
};
