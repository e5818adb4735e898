import { expect } from 'vitest';
import type {
  EpisodeDto,
  PodcastDetail,
  PodcastShowDto,
} from '../../src/contracts/podcasts.contract.ts';
import type { TestContext } from '../helpers/test-app.ts';
import { makeWav, multipart, type Part, type TestUser } from './songs-helpers.ts';

/** POST /api/podcasts (or PATCH /api/podcasts/{id}) with these parts, as `user`. */
export function sendShow(ctx: TestContext, user: TestUser | null, parts: Part[], patchId?: string) {
  const { headers, payload } = multipart(parts);
  return ctx.app.inject({
    method: patchId ? 'PATCH' : 'POST',
    url: patchId ? `/api/podcasts/${patchId}` : '/api/podcasts',
    headers: { ...headers, ...(user?.headers ?? {}) },
    payload,
  });
}

/** A show of `user`'s, created through the API (201 expected). */
export async function createShow(
  ctx: TestContext,
  user: TestUser,
  fields: Record<string, string> = {},
  cover?: Buffer,
): Promise<PodcastShowDto> {
  const parts: Part[] = Object.entries({ title: 'A Show', ...fields }).map(([name, value]) => ({
    name,
    value,
  }));
  if (cover)
    parts.push({ name: 'cover', filename: 'c.png', contentType: 'image/png', data: cover });
  const res = await sendShow(ctx, user, parts);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PodcastShowDto>();
}

/** POST /api/podcasts/{id}/episodes with these parts, as `user`. */
export function sendEpisode(
  ctx: TestContext,
  user: TestUser | null,
  podcastId: string,
  parts: Part[],
) {
  const { headers, payload } = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/podcasts/${podcastId}/episodes`,
    headers: { ...headers, ...(user?.headers ?? {}) },
    payload,
  });
}

/** An episode uploaded through the API (a 1 s WAV unless `audio` is given; 201 expected). */
export async function uploadEpisode(
  ctx: TestContext,
  user: TestUser,
  podcastId: string,
  episode: { title: string; episode_number?: string; description?: string; audio?: Buffer },
): Promise<EpisodeDto> {
  const { audio, ...fields } = episode;
  const parts: Part[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  parts.push({
    name: 'audio',
    filename: 'episode.wav',
    contentType: 'audio/wav',
    data: audio ?? makeWav(1),
  });
  const res = await sendEpisode(ctx, user, podcastId, parts);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<EpisodeDto>();
}

/** GET /api/podcasts/{id} as `user` (200 expected). */
export async function showDetail(
  ctx: TestContext,
  user: TestUser,
  podcastId: string,
): Promise<PodcastDetail> {
  const res = await ctx.app.inject({ url: `/api/podcasts/${podcastId}`, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PodcastDetail>();
}
