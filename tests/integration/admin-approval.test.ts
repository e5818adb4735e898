import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';
import type { App } from '../../src/server/app.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function account(app: App, body: { is_artist?: boolean; display_name?: string } = {}) {
  const { res } = await signUp(app, body);
  expect(res.statusCode).toBe(201);
  const session = res.json();
  return { id: session.user.id as string, token: session.access_token as string };
}

describe.each(dbKinds)('artist approval on %s', (kind) => {
  const ctx = useTestApp(kind);

  // Roles are granted out of band (ADMIN_EMAIL or the CLI), never through the API.
  async function withRole(role: 'admin' | 'artist') {
    const user = await account(ctx.app);
    await createRolesRepository(ctx.db.database.db).grant(user.id, role);
    return user;
  }
  const admin = () => withRole('admin');

  const rolesOf = async (token: string) =>
    (
      await ctx.app.inject({ method: 'GET', url: '/api/auth/session', headers: bearer(token) })
    ).json().user.roles;

  it('lists pending requests with display names and approves one into an artist', async () => {
    const a = await admin();
    const requester = await account(ctx.app, { is_artist: true, display_name: 'Nova Sound' });
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/artist-requests',
      headers: bearer(a.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(
      expect.objectContaining({ user_id: requester.id, display_name: 'Nova Sound' }),
    );
    expect(await rolesOf(requester.token)).toEqual(['pending_artist']);

    const approve = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${requester.id}/approve`,
      headers: bearer(a.token),
    });
    expect(approve.statusCode).toBe(204);
    expect(await rolesOf(requester.token)).toEqual(['artist']);

    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/artist-requests',
      headers: bearer(a.token),
    });
    expect(after.json().map((r: { user_id: string }) => r.user_id)).not.toContain(requester.id);

    // Approving twice is refused: only pending rows change.
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${requester.id}/approve`,
      headers: bearer(a.token),
    });
    expect(again.statusCode).toBe(404);
    expect(await rolesOf(requester.token)).toEqual(['artist']);
  });

  it('reject deletes the pending row and leaves the user a listener', async () => {
    const a = await admin();
    const requester = await account(ctx.app, { is_artist: true });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${requester.id}/reject`,
      headers: bearer(a.token),
    });
    expect(res.statusCode).toBe(204);
    expect(await rolesOf(requester.token)).toEqual([]);
  });

  it('refuses listeners, pending artists and artists (403) and anonymous callers (401), changing nothing', async () => {
    const listener = await account(ctx.app);
    const artist = await withRole('artist');
    const requester = await account(ctx.app, { is_artist: true });
    for (const caller of [listener, requester, artist]) {
      for (const action of ['approve', 'reject']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: `/api/admin/artist-requests/${requester.id}/${action}`,
          headers: bearer(caller.token),
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('permission_denied');
      }
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/artist-requests',
        headers: bearer(caller.token),
      });
      expect(list.statusCode).toBe(403);
    }
    const anon = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${requester.id}/approve`,
    });
    expect(anon.statusCode).toBe(401);
    expect(await rolesOf(requester.token)).toEqual(['pending_artist']);
  });

  it('answers 404 for a user without a pending request and 400 for a malformed id', async () => {
    const a = await admin();
    const listener = await account(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${listener.id}/approve`,
      headers: bearer(a.token),
    });
    expect(res.statusCode).toBe(404);
    expect(await rolesOf(listener.token)).toEqual([]);
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/artist-requests/not-a-uuid/approve',
      headers: bearer(a.token),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('notifies the user of the decision', async () => {
    const a = await admin();
    const approved = await account(ctx.app, { is_artist: true });
    const rejected = await account(ctx.app, { is_artist: true });
    await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${approved.id}/approve`,
      headers: bearer(a.token),
    });
    await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${rejected.id}/reject`,
      headers: bearer(a.token),
    });
    const { sql } = await import('drizzle-orm');
    const result = (await ctx.db.database.db.execute(
      sql`select user_id, type from notifications where user_id in (${approved.id}, ${rejected.id}) order by type`,
    )) as unknown as { rows: unknown[] };
    expect(result.rows).toEqual([
      { user_id: approved.id, type: 'artist_approved' },
      { user_id: rejected.id, type: 'artist_rejected' },
    ]);
  });
});
