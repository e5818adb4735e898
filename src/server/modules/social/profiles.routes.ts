import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socialApi } from '../../../contracts/api/social.api.ts';
import { AVATAR_FIELD } from '../../../contracts/social.contract.ts';
import { profileLimits } from '../../../core/validation/profile.rules.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { multipartDoc, partsOf, type MultipartLimits } from '../../http/multipart-parts.ts';
import type { ProfilesService } from './profiles.service.ts';

// The parser's ceilings; the service enforces the avatar's limit while reading (+1 byte so it
// sees the byte that breaks it). Two files, so a stray one reaches the service and is
// refused by name instead of being dropped by the parser.
const avatarLimits: MultipartLimits = {
  fileSize: profileLimits.avatarMaxBytes + 1,
  files: 2,
  fields: 2,
  parts: 4,
  fieldSize: 1024,
  fieldNameSize: 64,
  headerPairs: 20,
};

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
      await scope.register(multipart, { limits: avatarLimits, throwFileSizeLimit: true });
      contractRoute(scope, socialApi.replaceAvatar, {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: "Replace the caller's avatar (an image ≤ 5 MB; stored re-encoded as WebP)",
          ...multipartDoc({
            [AVATAR_FIELD]: {
              file: true,
              required: true,
              description: 'avatar image ≤ 5 MB (JPEG, PNG, WebP, GIF, AVIF)',
            },
          }),
        },
        handler: async (request) =>
          profiles.replaceAvatar(requirePrincipal(request).userId, partsOf(request, avatarLimits)),
      });
    });
  };
