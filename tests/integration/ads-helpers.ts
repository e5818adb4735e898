import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type {
  AdDto,
  AdminAdDto,
  AdminAdList,
  AdminAdListItem,
  AdShowingResponse,
} from '../../src/contracts/ads.contract.ts';
import type { TestContext } from '../helpers/test-app.ts';
import { makeUser, multipart, rows, type Part, type TestUser } from './songs-helpers.ts';

/** A signed-up user with the admin role (granted in the database, where the policy reads it). */
export async function makeAdmin(ctx: TestContext, name = 'Ad Admin'): Promise<TestUser> {
  const user = await makeUser(ctx, 'listener', name);
  await ctx.db.database.db.execute(
    sql`insert into user_roles (user_id, role) values (${user.userId}, 'admin')`,
  );
  return user;
}

/** A current premium subscription for `userId` (what a confirmed checkout leaves). */
export async function subscribe(ctx: TestContext, userId: string): Promise<void> {
  const now = ctx.clock.now().getTime();
  await ctx.db.database.db.execute(
    sql`insert into subscriptions (user_id, provider, status, current_period_start, current_period_end)
        values (${userId}, 'local', 'active', ${new Date(now - 86_400_000)},
                ${new Date(now + 30 * 86_400_000)})`,
  );
}

/** Text fields first, then the files, as a browser's form sends them. */
export function adParts(
  fields: Record<string, string>,
  files: { image?: Buffer; audio?: Buffer; audioType?: string } = {},
): Part[] {
  const parts: Part[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (files.image)
    parts.push({ name: 'image', filename: 'ad.png', contentType: 'image/png', data: files.image });
  if (files.audio)
    parts.push({
      name: 'audio',
      filename: 'ad.wav',
      contentType: files.audioType ?? 'audio/wav',
      data: files.audio,
    });
  return parts;
}

/** POST /api/admin/ads (or PATCH /api/admin/ads/{id}) with these parts, as `user`. */
export function sendAd(ctx: TestContext, user: TestUser | null, parts: Part[], patchId?: string) {
  const { headers, payload } = multipart(parts);
  return ctx.app.inject({
    method: patchId ? 'PATCH' : 'POST',
    url: patchId ? `/api/admin/ads/${patchId}` : '/api/admin/ads',
    headers: { ...headers, ...(user?.headers ?? {}) },
    payload,
  });
}

/** An ad created through the API (201 expected). */
export async function createAd(
  ctx: TestContext,
  admin: TestUser,
  fields: Record<string, string>,
  files: { image?: Buffer; audio?: Buffer } = {},
): Promise<AdminAdDto> {
  const res = await sendAd(ctx, admin, adParts(fields, files));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AdminAdDto>();
}

export async function listAds(ctx: TestContext, admin: TestUser): Promise<AdminAdListItem[]> {
  const res = await ctx.app.inject({ url: '/api/admin/ads', headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AdminAdList>().items;
}

export async function setActive(
  ctx: TestContext,
  admin: TestUser,
  id: string,
  active: boolean,
): Promise<AdminAdDto> {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/admin/ads/${id}/active`,
    headers: admin.headers,
    payload: { active },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AdminAdDto>();
}

/** POST /api/ads/showings as `user`: the whole answer (200 expected). */
export async function askShowing(ctx: TestContext, user: TestUser): Promise<AdShowingResponse> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/ads/showings',
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AdShowingResponse>();
}

/** The ad a new showing hands `user`, or null (none active, or the frequency cap). */
export async function nextAd(ctx: TestContext, user: TestUser): Promise<AdDto | null> {
  return (await askShowing(ctx, user)).ad;
}

export function postImpression(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/ads/impressions',
    headers: user.headers,
    payload: body,
  });
}

/** Hands `user` the next ad, lets its duration pass, records its impression (200 expected). */
export async function seeAd(ctx: TestContext, user: TestUser): Promise<AdDto> {
  const ad = await nextAd(ctx, user);
  expect(ad).not.toBeNull();
  ctx.clock.advance(ad!.duration * 1000);
  const res = await postImpression(ctx, user, { showing_id: ad!.showing_id });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<{ recorded: boolean }>().recorded).toBe(true);
  return ad!;
}

/** A play of `songId` started by `user` now (POST /api/plays): their current stream record. */
export async function startPlay(ctx: TestContext, user: TestUser, songId: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/plays',
    headers: user.headers,
    payload: { song_id: songId },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

export type ShowingRow = {
  id: string;
  ad_id: string;
  user_id: string;
  song_id: string | null;
  podcast_episode_id: string | null;
  duration_ms: number;
};

export const showingRows = (ctx: TestContext) =>
  rows<ShowingRow>(
    ctx,
    sql`select id, ad_id, user_id, song_id, podcast_episode_id, duration_ms from ad_showings
        order by created_at, id`,
  );

export type ImpressionRow = {
  ad_id: string | null;
  user_id: string | null;
  song_id: string | null;
  podcast_episode_id: string | null;
  showing_id: string;
};

export const impressionRows = (ctx: TestContext) =>
  rows<ImpressionRow>(
    ctx,
    sql`select ad_id, user_id, song_id, podcast_episode_id, showing_id from ad_impressions
        order by created_at, id`,
  );

export const adCount = async (ctx: TestContext) =>
  Number((await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ads`))[0]!.n);
