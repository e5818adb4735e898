import {
  appPasswordList,
  appPasswordParams,
  createAppPasswordBody,
  createdAppPasswordDto,
} from '../subsonic.contract.ts';
import { defineRoute } from './define-route.ts';

export const subsonicApi = {
  listPasswords: defineRoute({
    method: 'GET',
    path: '/api/me/subsonic/passwords',
    response: appPasswordList,
  }),
  createPassword: defineRoute({
    method: 'POST',
    path: '/api/me/subsonic/passwords',
    body: createAppPasswordBody,
    status: 201,
    response: createdAppPasswordDto,
  }),
  revokePassword: defineRoute({
    method: 'DELETE',
    path: '/api/me/subsonic/passwords/:id',
    params: appPasswordParams,
  }),
};
