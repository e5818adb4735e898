import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList } from '../../src/contracts/notifications.contract.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import type { NotificationsModule } from '../../src/server/modules/notifications/notifications.module.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { signIn, signUp } from './auth-helpers.ts';
import { LiveClient, notificationsApi, openLive } from './notifications-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

/*
 * Notifications (docs/decisions/0021) on both engines: the REST API of the menu and the screen,
 * what the server creates (notify, the followers' fan-out, artist decisions), and live delivery
 * over the WebSocket with its refusals (no session, foreign Origin, bad frames).
 */

type Row = { id: string; user_id: string; type: string; title: string; read: boolean };

describe.each(dbKinds)('notifications on %s', (kind) => {
  const ctx = useTestApp(kind);
  let api: NotificationsModule;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    api = notificationsApi(ctx);
    alice = await makeUser(ctx, 'listener', 'Alice');
    bob = await makeUser(ctx, 'listener', 'Bob');
  });

  const call = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, user?: TestUser) =>
    ctx.app.inject({ method, url, headers: user ? user.headers : {} });
  const list = async (user: TestUser, unread = false) => {
    const res = await call('GET', `/api/me/notifications${unread ? '?unread=true' : ''}`, user);
    expect(res.statusCode).toBe(200);
    return res.json<NotificationList>();
  };
  const rowsOf = (userId: string) =>
    rows<Row>(
      ctx,
      sql`select id, user_id, type, title, read from notifications where user_id = ${userId}`,
    );
  /** `n` notifications for `user`, one clock tick apart (the last is the newest). */
  const seed = async (user: TestUser, n: number, prefix: string) => {
    for (let i = 1; i <= n; i++) {
      ctx.clock.advance(1000);
      await api.notify({
        userId: user.userId,
        type: 'system',
        title: `${prefix} ${i}`,
        message: `Message ${i}`,
        link: `/notifications`,
      });
    }
  };

  it('lists the 10 newest with the unread count and total; the Unread filter too', async () => {
    const user = await makeUser(ctx, 'listener', 'Many');
    await seed(user, 12, 'Note');
    const all = await list(user);
    expect(all.items.map((n) => n.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Note ${12 - i}`),
    );
    expect(all).toMatchObject({ unread_count: 12, total: 12 });
    expect(all.items[0]).toMatchObject({
      type: 'system',
      message: 'Message 12',
      link: '/notifications',
      read: false,
    });

    const newest = all.items[0]!.id;
    expect((await call('PATCH', `/api/me/notifications/${newest}/read`, user)).statusCode).toBe(
      204,
    );
    const unread = await list(user, true);
    expect(unread.items.map((n) => n.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Note ${11 - i}`),
    );
    expect(unread).toMatchObject({ unread_count: 11, total: 12 });
    expect((await list(user)).items[0]).toMatchObject({ id: newest, read: true });
  });

  it("marks all read and deletes; another user's id is 404 and changes nothing", async () => {
    await seed(alice, 3, 'Alice');
    await seed(bob, 1, 'Bob');
    const [bobs] = await rowsOf(bob.userId);

    for (const [method, url] of [
      ['PATCH', `/api/me/notifications/${bobs!.id}/read`],
      ['DELETE', `/api/me/notifications/${bobs!.id}`],
    ] as const) {
      const res = await call(method, url, alice);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'not_found',
        message: 'Notification not found',
      });
    }
    expect(await rowsOf(bob.userId)).toEqual([bobs]);

    const all = await call('POST', '/api/me/notifications/read-all', alice);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ updated: 3 });
    expect(await list(alice)).toMatchObject({ unread_count: 0, total: 3 });
    expect((await rowsOf(bob.userId))[0]!.read).toBe(false);
    expect((await call('POST', '/api/me/notifications/read-all', alice)).json()).toEqual({
      updated: 0,
    });

    const first = (await list(alice)).items[0]!;
    expect((await call('DELETE', `/api/me/notifications/${first.id}`, alice)).statusCode).toBe(204);
    expect(await list(alice)).toMatchObject({ unread_count: 0, total: 2 });
    expect((await call('DELETE', `/api/me/notifications/${first.id}`, alice)).statusCode).toBe(404);
  });

  it('refuses a malformed id (400) and callers without a session (401)', async () => {
    const bad = await call('PATCH', '/api/me/notifications/not-an-id/read', alice);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_failed');
    expect((await call('GET', '/api/me/notifications')).statusCode).toBe(401);
    expect((await call('POST', '/api/me/notifications/read-all')).statusCode).toBe(401);
  });

  it('stores server texts cut to their lengths and keeps links inside the app', async () => {
    const user = await makeUser(ctx, 'listener', 'Texts');
    await api.notify({
      userId: user.userId,
      type: 'system',
      title: 'T'.repeat(500),
      message: 'M'.repeat(5000),
      link: 'https://elsewhere.example/phish',
    });
    await api.notify({
      userId: user.userId,
      type: 'system',
      title: 'Slashes',
      message: '',
      link: '//evil.example',
    });
    const { items } = await list(user);
    const long = items.find((n) => n.title.startsWith('T'))!;
    expect(Array.from(long.title)).toHaveLength(200);
    expect(long.title.endsWith('…')).toBe(true);
    expect(Array.from(long.message)).toHaveLength(2000);
    expect(long.link).toBeNull();
    expect(items.find((n) => n.title === 'Slashes')!.link).toBeNull();
  });

  it('fans a release out to every follower in one statement, and to nobody else', async () => {
    const artist = await makeUser(ctx, 'artist', 'Fan Out');
    const followers = [
      await makeUser(ctx, 'listener', 'F1'),
      await makeUser(ctx, 'listener', 'F2'),
    ];
    const stranger = await makeUser(ctx, 'listener', 'Stranger');
    for (const f of followers) {
      await ctx.db.database.db.execute(
        sql`insert into user_follows (follower_id, following_id) values (${f.userId}, ${artist.userId})`,
      );
    }
    const release = {
      title: 'New release',
      message: 'Fan Out released "Song"',
      link: `/profile/${artist.userId}`,
    };
    expect(await api.notifyFollowers(artist.userId, release)).toBe(2);
    for (const f of followers) {
      expect((await rowsOf(f.userId)).map((r) => [r.type, r.title])).toEqual([
        ['new_release', 'New release'],
      ]);
    }
    expect(await rowsOf(stranger.userId)).toEqual([]);
    expect(await rowsOf(artist.userId)).toEqual([]);
    // Nobody follows the stranger: nothing made, nothing announced.
    expect(await api.notifyFollowers(stranger.userId, release)).toBe(0);
  });

  it('notifies an artist request decision in the decision itself', async () => {
    const admin = await makeUser(ctx, 'listener', 'Admin');
    await createRolesRepository(ctx.db.database.db).grant(admin.userId, 'admin');
    const approved = await makeUser(ctx, 'pending_artist', 'Approved');
    const rejected = await makeUser(ctx, 'pending_artist', 'Rejected');
    const socket = await openLive(ctx.app, approved.headers);

    const decide = (user: TestUser, what: 'approve' | 'reject') =>
      call('POST', `/api/admin/artist-requests/${user.userId}/${what}`, admin);
    expect((await decide(approved, 'approve')).statusCode).toBe(204);
    expect((await decide(rejected, 'reject')).statusCode).toBe(204);

    const pushed = await socket.next(LiveClient.titled('Artist request approved'));
    expect(pushed.notification).toMatchObject({
      type: 'artist_approved',
      message: 'You can now upload music and podcasts.',
      link: '/upload',
      read: false,
    });
    expect((await list(rejected)).items).toEqual([
      expect.objectContaining({
        type: 'artist_rejected',
        title: 'Artist request declined',
        link: null,
      }),
    ]);
    // A second decision finds no request: 404, and no second notice.
    expect((await decide(approved, 'approve')).statusCode).toBe(404);
    expect(await rowsOf(approved.userId)).toHaveLength(1);
    socket.socket.close();
  });

  describe('live socket', () => {
    it("pushes the user's new notifications, only theirs, and only once committed", async () => {
      const socket = await openLive(ctx.app, alice.headers);
      const other = await openLive(ctx.app, bob.headers);

      // Rolled back: neither stored nor pushed.
      await expect(
        ctx.db.database.db.transaction(async (tx) => {
          await api.notify(
            { userId: alice.userId, type: 'system', title: 'Rolled back', message: '' },
            tx as never,
          );
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');

      const started = Date.now();
      await api.notify({
        userId: alice.userId,
        type: 'new_follower',
        title: 'New follower',
        message: 'Bob started following you',
        link: `/profile/${bob.userId}`,
      });
      const pushed = await socket.next(LiveClient.titled('New follower'), 1_000);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(pushed.notification).toMatchObject({
        type: 'new_follower',
        message: 'Bob started following you',
        link: `/profile/${bob.userId}`,
        read: false,
      });
      expect(
        socket.messages.some(
          (m) => m.type === 'notification' && m.notification.title === 'Rolled back',
        ),
      ).toBe(false);
      expect(other.messages).toEqual([]);

      // Bob's own arrives on Bob's socket only.
      await api.notify({ userId: bob.userId, type: 'system', title: 'For Bob', message: '' });
      await other.next(LiveClient.titled('For Bob'));
      expect(
        socket.messages.some(
          (m) => m.type === 'notification' && m.notification.title === 'For Bob',
        ),
      ).toBe(false);
      socket.socket.close();
      other.socket.close();
    });

    it('pushes a release to each connected follower', async () => {
      const artist = await makeUser(ctx, 'artist', 'Live Artist');
      const fan = await makeUser(ctx, 'listener', 'Live Fan');
      await ctx.db.database.db.execute(
        sql`insert into user_follows (follower_id, following_id) values (${fan.userId}, ${artist.userId})`,
      );
      const socket = await openLive(ctx.app, fan.headers);
      const bystander = await openLive(ctx.app, alice.headers);
      await api.notifyFollowers(artist.userId, {
        title: 'New release',
        message: 'Live Artist released "Go"',
      });
      const pushed = await socket.next(LiveClient.titled('New release'), 1_000);
      expect(pushed.notification).toMatchObject({
        type: 'new_release',
        message: 'Live Artist released "Go"',
      });
      // The bystander follows nobody: a ping's pong arrives, and nothing before it.
      bystander.socket.send(JSON.stringify({ type: 'ping' }));
      await bystander.next((m): m is { type: 'pong' } => m.type === 'pong');
      expect(bystander.messages).toEqual([{ type: 'pong' }]);
      socket.socket.close();
      bystander.socket.close();
    });

    it('pushes each of two releases made at the same instant once', async () => {
      // The test clock stands still: both fan-outs carry the same created_at, and each
      // announcement reads that instant's release notifications, the other's too.
      const [one, two] = [
        await makeUser(ctx, 'artist', 'Same Instant One'),
        await makeUser(ctx, 'artist', 'Same Instant Two'),
      ];
      const fan = await makeUser(ctx, 'listener', 'Both Fan');
      await ctx.db.database.db.execute(
        sql`insert into user_follows (follower_id, following_id)
            values (${fan.userId}, ${one.userId}), (${fan.userId}, ${two.userId})`,
      );
      const socket = await openLive(ctx.app, fan.headers);
      await api.notifyFollowers(one.userId, { title: 'Release one', message: '' });
      await api.notifyFollowers(two.userId, { title: 'Release two', message: '' });
      await socket.next(LiveClient.titled('Release one'));
      await socket.next(LiveClient.titled('Release two'));
      // A repeat would come from the second announcement, which may still be in flight:
      // it is given time, then a pong marks the end of what is counted.
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.socket.send(JSON.stringify({ type: 'ping' }));
      await socket.next((m): m is { type: 'pong' } => m.type === 'pong');
      const titles = socket.messages.flatMap((m) =>
        m.type === 'notification' ? [m.notification.title] : [],
      );
      expect(titles.sort()).toEqual(['Release one', 'Release two']);
      socket.socket.close();
    });

    it('refuses a handshake without a live session, or from a foreign page', async () => {
      await expect(openLive(ctx.app, {})).rejects.toThrow(/401/);
      await expect(openLive(ctx.app, { authorization: 'Bearer not-a-token' })).rejects.toThrow(
        /401/,
      );
      await expect(openLive(ctx.app, { cookie: `canto_access=${alice.token}x` })).rejects.toThrow(
        /401/,
      );
      await expect(openLive(ctx.app, alice.headers, 'https://evil.example')).rejects.toThrow(/403/);
      await expect(openLive(ctx.app, alice.headers, 'null')).rejects.toThrow(/403/);

      // A signed-out session's token opens nothing any more.
      const leaving = await makeUser(ctx, 'listener', 'Leaving');
      const live = await openLive(ctx.app, { cookie: `canto_access=${leaving.token}` });
      live.socket.close();
      expect((await call('POST', '/api/auth/sign-out', leaving)).statusCode).toBeLessThan(300);
      await expect(openLive(ctx.app, leaving.headers)).rejects.toThrow(/401/);
    });

    it("closes a session's sockets when it signs out, is revoked or deleted, and no other session's", async () => {
      // One account signed in on two devices, each with a socket.
      const { res, payload } = await signUp(ctx.app, { display_name: 'Two Devices' });
      expect(res.statusCode, res.body).toBe(201);
      const userId = res.json().user.id as string;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      /** Another session of the same account: its Authorization header. */
      const anotherSession = async () =>
        bearer(await signIn(ctx.app, payload.email, payload.password));
      const laptop = bearer(res.json().access_token);
      const phone = await anotherSession();
      const laptopLive = await openLive(ctx.app, laptop);
      const phoneLive = await openLive(ctx.app, phone);
      const aliceLive = await openLive(ctx.app, alice.headers);

      // Signing out on the laptop closes its socket at once, not when its token expires.
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: laptop,
      });
      expect(out.statusCode).toBeLessThan(300);
      expect(await laptopLive.closedWith()).toBe(4001);
      expect(phoneLive.closed).toBeNull();
      await api.notify({ userId, type: 'system', title: 'Phone only', message: '' });
      await phoneLive.next(LiveClient.titled('Phone only'));

      // Every session of the account ended in one statement (as a password reset ends them).
      await ctx.db.database.db.execute(
        sql`update sessions set revoked_at = now(), revoked_reason = 'password_reset'
            where user_id = ${userId} and revoked_at is null`,
      );
      expect(await phoneLive.closedWith()).toBe(4001);

      // A live session deleted with its row (as its account's deletion cascades) closes too.
      const tabletLive = await openLive(ctx.app, await anotherSession());
      await ctx.db.database.db.execute(
        sql`delete from sessions where user_id = ${userId} and revoked_at is null`,
      );
      expect(await tabletLive.closedWith()).toBe(4001);
      // Another user's socket lives on.
      await api.notify({ userId: alice.userId, type: 'system', title: 'Alice still', message: '' });
      await aliceLive.next(LiveClient.titled('Alice still'));
      expect(aliceLive.closed).toBeNull();
      aliceLive.socket.close();
    });

    it('closes on a frame that is not JSON or too large, ignores unknown messages, and lives on', async () => {
      const ignored = await openLive(ctx.app, alice.headers);
      ignored.socket.send(JSON.stringify({ type: 'subscribe', user_id: bob.userId }));
      ignored.socket.send(JSON.stringify({ type: 'ping' }));
      await ignored.next((m): m is { type: 'pong' } => m.type === 'pong');
      expect(ignored.messages).toEqual([{ type: 'pong' }]);
      expect(ignored.closed).toBeNull();

      const badJson = await openLive(ctx.app, alice.headers);
      badJson.socket.send('{not json');
      expect(await badJson.closedWith()).toBe(1008);

      const huge = await openLive(ctx.app, alice.headers);
      huge.socket.send(Buffer.alloc(1024 * 1024, 'a').toString());
      expect(await huge.closedWith()).toBe(1009);

      const binary = await openLive(ctx.app, alice.headers);
      binary.socket.send(Buffer.from([1, 2, 3]));
      expect(await binary.closedWith()).toBe(1003);

      // The server is unharmed: the open socket still gets its notifications, the API answers.
      await api.notify({ userId: alice.userId, type: 'system', title: 'Still here', message: '' });
      await ignored.next(LiveClient.titled('Still here'));
      expect((await call('GET', '/api/health')).statusCode).toBe(200);
      ignored.socket.close();
    });

    it('closes a socket that floods with 1008; a client that pings as the app does stays open', async () => {
      const steady = await openLive(ctx.app, alice.headers);
      const flood = await openLive(ctx.app, alice.headers);
      const ping = JSON.stringify({ type: 'ping' });
      for (let i = 0; i < 1000; i++) flood.socket.send(ping);
      expect(await flood.closedWith()).toBe(1008);
      // Answered at most its burst and what refilled meanwhile, not the thousand.
      expect(flood.messages.length).toBeLessThan(200);

      for (let i = 0; i < 5; i++) {
        steady.socket.send(ping);
        await steady.next((m): m is { type: 'pong' } => m.type === 'pong', 5_000, i);
      }
      expect(steady.closed).toBeNull();
      await api.notify({
        userId: alice.userId,
        type: 'system',
        title: 'After the flood',
        message: '',
      });
      await steady.next(LiveClient.titled('After the flood'));
      steady.socket.close();
    });
  });
});
