import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminDeps, runAdminCommand } from '../../src/server/cli/admin.ts';
import type { Role } from '../../src/contracts/auth.contract.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';
import { makePng, multipart, storedFiles, uploadSong } from './songs-helpers.ts';

type Account = { email: string; headers: { authorization: string } };

describe.each(dbKinds)('songs after the artist role is revoked on %s', (kind) => {
  const ctx = useTestApp(kind);
  let owner: Account;
  let admin: Account;
  let song: { id: string; title: string; file_url: string; cover_art_url: string };

  // Roles change the way an operator changes them: `npm run admin -- grant|revoke`.
  const operator = (command: 'grant' | 'revoke', email: string, role: Role) =>
    runAdminCommand(
      { kind: command, email, role },
      adminDeps(ctx.db.database, { out: () => {}, err: () => {} }),
    );

  async function account(role?: Role): Promise<Account> {
    const { res, payload } = await signUp(ctx.app);
    expect(res.statusCode, res.body).toBe(201);
    if (role) expect(await operator('grant', payload.email, role)).toBe(0);
    return {
      email: payload.email,
      headers: { authorization: `Bearer ${res.json().access_token}` },
    };
  }

  const patch = (who: Account, title: string) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/songs/${song.id}`,
      headers: who.headers,
      payload: { title },
    });
  const putCover = async (who: Account) => {
    const { headers, payload } = multipart([
      { name: 'cover', filename: 'n.png', data: await makePng(120, 120) },
    ]);
    return ctx.app.inject({
      method: 'PUT',
      url: `/api/songs/${song.id}/cover`,
      headers: { ...headers, ...who.headers },
      payload,
    });
  };
  const del = (who: Account) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/songs/${song.id}`, headers: who.headers });
  const current = async () =>
    ctx.app.inject({ method: 'GET', url: `/api/songs/${song.id}`, headers: owner.headers });
  const fileOf = (url: string) =>
    path.join(ctx.env.dataDir, url.split('?')[0]!.replace('/media/', 'media/'));

  beforeAll(async () => {
    owner = await account('artist');
    admin = await account('admin');
    song = await uploadSong(ctx, owner, { title: 'Mine Once', cover: await makePng(100, 100) });
  });

  it('refuses edit, cover and delete to the uploader once the role is gone', async () => {
    expect(await operator('revoke', owner.email, 'artist')).toBe(0);
    const files = storedFiles(ctx.env.dataDir);

    // The same, still valid session: roles are read per request, not from the token.
    for (const res of [
      await patch(owner, 'Still Mine?'),
      await putCover(owner),
      await del(owner),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({
        code: 'permission_denied',
        message: 'Artist role required',
      });
    }
    const now = await current();
    expect(now.statusCode).toBe(200);
    expect(now.json()).toMatchObject({ title: 'Mine Once', cover_art_url: song.cover_art_url });
    expect(storedFiles(ctx.env.dataDir)).toEqual(files);
    expect(fs.existsSync(fileOf(song.file_url))).toBe(true);
  });

  it('gives an admin who is not the artist no rights over the song (spec §6)', async () => {
    const files = storedFiles(ctx.env.dataDir);
    expect((await patch(admin, 'Admin Was Here')).statusCode).toBe(403);
    expect((await putCover(admin)).statusCode).toBe(403);
    expect((await del(admin)).statusCode).toBe(403);
    expect((await current()).json().title).toBe('Mine Once');
    expect(storedFiles(ctx.env.dataDir)).toEqual(files);
  });

  it('gives them back with the role, and an admin who is also the artist keeps them', async () => {
    expect(await operator('grant', owner.email, 'artist')).toBe(0);
    expect(await operator('grant', owner.email, 'admin')).toBe(0);
    const renamed = await patch(owner, 'Mine Again');
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().title).toBe('Mine Again');
    expect((await putCover(owner)).statusCode).toBe(200);

    // An admin role does not stand in for the artist one.
    expect(await operator('revoke', owner.email, 'artist')).toBe(0);
    expect((await patch(owner, 'Admin Now')).statusCode).toBe(403);
    expect(await operator('grant', owner.email, 'artist')).toBe(0);
    expect((await del(owner)).statusCode).toBe(204);
    expect((await current()).statusCode).toBe(404);
    expect(fs.existsSync(fileOf(song.file_url))).toBe(false);
  });
});
