import {
  followingList,
  followState,
  pageQuery,
  profileDto,
  profileParams,
  profileSongs,
  updateProfileBody,
} from '../social.contract.ts';
import { defineRoute } from './define-route.ts';

export const socialApi = {
  profile: defineRoute({
    method: 'GET',
    path: '/api/profiles/:userId',
    params: profileParams,
    response: profileDto,
  }),
  profileSongs: defineRoute({
    method: 'GET',
    path: '/api/profiles/:userId/songs',
    params: profileParams,
    query: pageQuery,
    response: profileSongs,
  }),
  myProfile: defineRoute({ method: 'GET', path: '/api/me/profile', response: profileDto }),
  updateProfile: defineRoute({
    method: 'PATCH',
    path: '/api/me/profile',
    body: updateProfileBody,
    response: profileDto,
  }),
  /** Multipart: one AVATAR_FIELD image. */
  replaceAvatar: defineRoute({
    method: 'PUT',
    path: '/api/me/profile/avatar',
    multipart: true,
    response: profileDto,
  }),
  follow: defineRoute({
    method: 'PUT',
    path: '/api/follows/:userId',
    params: profileParams,
    response: followState,
  }),
  unfollow: defineRoute({
    method: 'DELETE',
    path: '/api/follows/:userId',
    params: profileParams,
    response: followState,
  }),
  following: defineRoute({
    method: 'GET',
    path: '/api/me/following',
    query: pageQuery,
    response: followingList,
  }),
};
