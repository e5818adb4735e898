import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pageQuery,
  profileDto,
  profileParams,
  profileSongs,
  updateProfileBody,
} from '../../../contracts/social.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { acceptUploads, withUpload } from '../../media/upload-form.ts';
import { avatarForm } from './profiles.forms.ts';
import type { ProfilesService } from './profiles.service.ts';

export const profilesRoutes =
  ({ profiles }: { profiles: ProfilesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/profiles/:userId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: "A user's profile with follower, following and song counts (404 if none)",
          params: profileParams,
          response: { 200: profileDto },
        },
      },
      async (request) => {
        const { userId } = requirePrincipal(request);
        return profiles.get(userId, request.params.userId);
      },
    );

    app.get(
      '/profiles/:userId/songs',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: 'The songs a user uploaded, newest first, a page at a time',
          params: profileParams,
          querystring: pageQuery,
          response: { 200: profileSongs },
        },
      },
      async (request) => profiles.songs(request.params.userId, request.query),
    );

    app.get(
      '/me/profile',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: "The caller's own profile",
          response: { 200: profileDto },
        },
      },
      async (request) => {
        const { userId } = requirePrincipal(request);
        return profiles.get(userId, userId);
      },
    );

    app.patch(
      '/me/profile',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: "Edit the caller's display name and bio (trimmed; blank clears)",
          body: updateProfileBody,
          response: { 200: profileDto },
        },
      },
      async (request) => profiles.update(requirePrincipal(request).userId, request.body),
    );

    // Its own scope: only this route parses multipart bodies.
    await app.register(async (scope) => {
      await acceptUploads(scope, avatarForm);
      scope.put(
        '/me/profile/avatar',
        {
          config: { access: 'signed-in' },
          schema: {
            tags: ['social'],
            summary: "Replace the caller's avatar (an image ≤ 5 MB; stored re-encoded as WebP)",
            ...avatarForm.doc,
            response: { 200: profileDto },
          },
        },
        async (request) =>
          withUpload(request, avatarForm, {}, (upload) =>
            profiles.replaceAvatar(requirePrincipal(request).userId, upload),
          ),
      );
    });
  };
