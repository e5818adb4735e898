import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_LIVE_PATH } from '../../src/contracts/notifications.contract.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import { startServerChild, stopServerChild, type ServerChild } from '../helpers/server-child.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  LiveClient,
  notificationsApi,
  openLive,
  WebSocketClient,
} from './notifications-helpers.ts';
import { makeUser, rows } from './songs-helpers.ts';

/*
 * Live notifications (docs/decisions/0021) across processes, on one PostgreSQL database (PGlite is
 * one process's database): a notification created through this test's app reaches a socket held by
 * another app process (the real server, src/server/main.ts, spawned), through LISTEN/NOTIFY. And a
 * process whose listening connection is cut tells its sockets to catch up, then delivers again.
 */

const onPostgres = dbKinds.includes('postgres');
if (!onPostgres)
  console.warn('notifications-processes.test.ts skipped: PostgreSQL is not reachable');

describe.runIf(onPostgres)('live notifications across app processes on PostgreSQL', () => {
  const ctx = useTestApp('postgres');
  let server: ServerChild;
  let wsBase: string;
  const childDir = path.join(tmpRoot, `notifications-child-${process.pid}`);

  beforeAll(async () => {
    fs.mkdirSync(childDir, { recursive: true });
    server = await startServerChild({
      DATABASE_URL: ctx.db.url!,
      DATA_DIR: childDir,
      // The same deployment as the test's app: its keys, issuer and origin.
      SECRET_KEY: ctx.env.secretKey!,
      PUBLIC_URL: ctx.env.publicUrl,
      DEMO: '0',
      CANTO_DEV: '1',
    });
    wsBase = server.url.replace(/^http/, 'ws');
  });

  afterAll(async () => {
    if (server) await stopServerChild(server);
    fs.rmSync(childDir, { recursive: true, force: true });
  });

  it("an approval made through one process reaches the user's socket on the other", async () => {
    const admin = await makeUser(ctx, 'listener', 'Admin');
    await createRolesRepository(ctx.db.database.db).grant(admin.userId, 'admin');
    const requester = await makeUser(ctx, 'pending_artist', 'Across');

    const socket = new WebSocketClient(`${wsBase}${NOTIFICATIONS_LIVE_PATH}`, {
      headers: { cookie: `canto_access=${requester.token}`, origin: ctx.env.publicUrl },
    });
    const live = new LiveClient(socket);
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });

    const sent = Date.now();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/artist-requests/${requester.userId}/approve`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(204);
    const pushed = await live.next(LiveClient.titled('Artist request approved'), 1_000);
    expect(Date.now() - sent).toBeLessThan(1_000);
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`select id from notifications where user_id = ${requester.userId}`,
    );
    expect(pushed.notification).toMatchObject({ id: row!.id, type: 'artist_approved' });

    // A foreign page cannot open one there either.
    const foreign = new WebSocketClient(`${wsBase}${NOTIFICATIONS_LIVE_PATH}`, {
      headers: { cookie: `canto_access=${requester.token}`, origin: 'https://evil.example' },
    });
    const status = await new Promise<number>((resolve) =>
      foreign.on('unexpected-response', (_req: unknown, response: { statusCode: number }) =>
        resolve(response.statusCode),
      ),
    );
    expect(status).toBe(403);
    foreign.on('error', () => {}); // "closed before the connection was established": it was refused
    foreign.terminate();
    socket.close();
  });

  it('tells sockets to catch up after its listening connection was cut, then delivers again', async () => {
    const user = await makeUser(ctx, 'listener', 'Cut Off');
    const live = await openLive(ctx.app, user.headers);
    const api = notificationsApi(ctx);

    // Both processes' listening connections (application_name canto-listen) are cut.
    const cut = await rows<{ cut: boolean }>(
      ctx,
      sql`select pg_terminate_backend(pid) as cut from pg_stat_activity
          where datname = current_database() and application_name = 'canto-listen'`,
    );
    expect(cut.length).toBeGreaterThanOrEqual(2);
    await live.next((m): m is { type: 'resync' } => m.type === 'resync', 10_000);

    await api.notify({ userId: user.userId, type: 'system', title: 'After the cut', message: '' });
    await live.next(LiveClient.titled('After the cut'), 2_000);
    live.socket.close();
  });

  it('closes the sockets of a session revoked while it was not listening, once it listens again', async () => {
    const user = await makeUser(ctx, 'listener', 'Revoked While Deaf');
    const kept = await makeUser(ctx, 'listener', 'Still Signed In');
    const live = await openLive(ctx.app, user.headers);
    const other = await openLive(ctx.app, kept.headers);

    // The listening connections are cut, and the session is revoked before they are back
    // (they wait at least 250 ms): its announcement reaches no process.
    const [cut] = await rows<{ n: number }>(
      ctx,
      sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = current_database() and application_name = 'canto-listen'`,
    );
    expect(cut!.n).toBeGreaterThanOrEqual(2);
    await ctx.db.database.db.execute(
      sql`update sessions set revoked_at = now(), revoked_reason = 'test'
          where user_id = ${user.userId}`,
    );

    // Once listening again, the process asks about its sockets' sessions.
    expect(await live.closedWith(10_000)).toBe(4001);
    await other.next((m): m is { type: 'resync' } => m.type === 'resync', 10_000);
    expect(other.closed).toBeNull();
    other.socket.close();
  });
});
