import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socialApi } from '../../../contracts/api/social.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { acceptUploads, withUpload } from '../../media/upload-form.ts';
import { avatarForm } from './profiles.forms.ts';
import type { ProfilesService } from './profiles.service.ts';

export const profilesRoutes =
  ({ profiles }: { profiles: ProfilesService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, socialApi.profile, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: "A user's profile with follower, following and song counts (404 if none)",
      },
      handler: async (request) => {
        const { userId } = requirePrincipal(request);
        return profiles.get(userId, request.params.userId);
      },
    });

    contractRoute(app, socialApi.profileSongs, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: 'The songs a user uploaded, newest first, a page at a time',
      },
      handler: async (request) => profiles.songs(request.params.userId, request.query),
    });

    contractRoute(app, socialApi.myProfile, {
      config: { access: 'signed-in' },
      schema: { tags: ['social'], summary: "The caller's own profile" },
      handler: async (request) => {
        const { userId } = requirePrincipal(request);
        return profiles.get(userId, userId);
      },
    });

    contractRoute(app, socialApi.updateProfile, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: "Edit the caller's display name and bio (trimmed; blank clears)",
      },
      handler: async (request) => profiles.update(requirePrincipal(request).userId, request.body),
    });

    // Its own scope: only this route parses multipart bodies.
    await app.register(async (scope) => {
      await acceptUploads(scope, avatarForm);
      contractRoute(scope, socialApi.replaceAvatar, {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: "Replace the caller's avatar (an image ≤ 5 MB; stored re-encoded as WebP)",
          ...avatarForm.doc,
        },
        handler: async (request) =>
          withUpload(request, avatarForm, {}, (upload) =>
            profiles.replaceAvatar(requirePrincipal(request).userId, upload),
          ),
      });
    });
  };
