import {
  browseResponse,
  homeResponse,
  songDto,
  songEditBody,
  songIdParams,
  songList,
  songLyricsDto,
  songListQuery,
} from '../songs.contract.ts';
import { defineRoute } from './define-route.ts';

export const songsApi = {
  /** Multipart: songUploadFields (audio `file`, optional `cover`, `title`, `genre`, `lyrics`). */
  upload: defineRoute({
    method: 'POST',
    path: '/api/songs',
    multipart: true,
    status: 201,
    response: songDto,
  }),
  home: defineRoute({ method: 'GET', path: '/api/songs/home', response: homeResponse }),
  browse: defineRoute({ method: 'GET', path: '/api/songs/browse', response: browseResponse }),
  list: defineRoute({
    method: 'GET',
    path: '/api/songs',
    query: songListQuery,
    response: songList,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/songs/:id',
    params: songIdParams,
    response: songDto,
  }),
  lyrics: defineRoute({
    method: 'GET',
    path: '/api/songs/:id/lyrics',
    params: songIdParams,
    response: songLyricsDto,
  }),
  edit: defineRoute({
    method: 'PATCH',
    path: '/api/songs/:id',
    params: songIdParams,
    body: songEditBody,
    response: songDto,
  }),
  /** Multipart: one `cover` image. */
  replaceCover: defineRoute({
    method: 'PUT',
    path: '/api/songs/:id/cover',
    params: songIdParams,
    multipart: true,
    response: songDto,
  }),
  reprocess: defineRoute({
    method: 'POST',
    path: '/api/songs/:id/reprocess',
    params: songIdParams,
    status: 202,
    response: songDto,
  }),
  remove: defineRoute({ method: 'DELETE', path: '/api/songs/:id', params: songIdParams }),
};
