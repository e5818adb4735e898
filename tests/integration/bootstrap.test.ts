import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildApp, type App } from '../../src/server/app.ts';
import { bootstrap } from '../../src/server/bootstrap.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import { createDemoRepository } from '../../src/server/demo/demo.repository.ts';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/server/demo/seed.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import type { Storage } from '../../src/server/storage/storage.ts';
import { createTestDatabase, dbKinds } from '../helpers/test-db.ts';
import { testEnv } from '../helpers/test-app.ts';

const silent = pino({ level: 'silent' });
// Σ of the play counts the demo starts its songs with (seed.ts SONGS).
const SONG_HISTORY = 433 + 1210 + 120 + 764 + 321 + 198 + 1843 + 540 + 260 + 987 + 75 + 652;
// Where a free listener asks for an ad.
const ACTIVE_AD_URL = '/api/ads/active';
const ACTIVE_AD_METHOD = 'GET';

/** A test database plus an app on it, whose accounts, roles and storage start-up uses. */
async function setup(kind: (typeof dbKinds)[number], env: Record<string, string>) {
  const db = await createTestDatabase(kind);
  const appEnv = testEnv(env, db.dataDir);
  const built = await buildApp({ env: appEnv, database: db.database, logger: false });
  await built.app.ready();
  const printed: string[] = [];
  // As the host runs it: with the app's own accounts, roles and storage.
  const run = () =>
    bootstrap({
      env: appEnv,
      database: db.database,
      log: silent,
      accounts: built.accounts,
      roles: built.roles,
      profiles: built.profiles,
      storage: built.storage,
      print: (t) => printed.push(t),
    });
  return { db, app: built.app, built, env: appEnv, printed, run };
}

async function signIn(app: App, email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
}

describe.each(dbKinds)('demo content on %s', (kind) => {
  let t: Awaited<ReturnType<typeof setup>>;
  let first: Awaited<ReturnType<typeof bootstrap>>;

  beforeAll(async () => {
    t = await setup(kind, { DEMO: '1' });
    first = await t.run();
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
    await t?.db.drop();
  });

  it('seeds accounts, catalogue and activity into an empty database', async () => {
    expect(first.admin).toBe('none');
    expect(first.demo?.songs).toBe(12);
    expect(first.demo?.episodes).toBe(3);
    const counts = await createDemoRepository(t.db.database.db).counts();
    expect(counts).toMatchObject({
      users: 7,
      songs: 12,
      podcasts: 1,
      episodes: 3,
      follows: 7,
      likes: 12,
      playlists: 3,
      streams: 45,
      // One new_follower per listener→artist follow, one welcome per account.
      notifications: 6 + 7,
    });
    expect(counts.playlist_tracks).toBeGreaterThan(6);
    expect(counts.artist_days).toBeGreaterThan(0);
  });

  it('dates activity after the thing it is about, within the last week', async () => {
    const result = (await t.db.database.db.execute(
      `
      select (select count(*) from stream_analytics sa join songs s on s.id = sa.song_id
               where sa.played_at < s.created_at or sa.played_at > now())::int as early_plays,
             (select count(*) from stream_analytics sa join podcast_episodes e on e.id = sa.podcast_episode_id
               where sa.played_at < e.published_at)::int as early_episode_plays,
             (select count(*) from liked_songs l join songs s on s.id = l.song_id where l.created_at < s.created_at)::int as early_likes,
             (select count(*) from stream_analytics where played_at < now() - interval '7 days')::int as old_plays,
             (select count(*) from stream_analytics where completed <> (listened_ms >= 0.9 * coalesce(
                (select duration_ms from songs where id = song_id),
                (select duration_ms from podcast_episodes where id = podcast_episode_id))))::int as wrong_completed,
             (select sum(play_count) from songs)::int - ${SONG_HISTORY} as counted_plays,
             (select count(*) from stream_analytics where song_id is not null)::int as song_plays` as never,
    )) as unknown as {
      rows: Record<string, number>[];
    };
    const r = result.rows[0]!;
    expect(r).toMatchObject({
      early_plays: 0,
      early_episode_plays: 0,
      early_likes: 0,
      old_plays: 0,
      wrong_completed: 0,
    });
    // play_count = the demo's history plus one per stream record.
    expect(r.counted_plays).toBe(r.song_plays);
  });

  it('gives each demo account its role, and the password works through sign-in', async () => {
    const roles = createRolesRepository(t.db.database.db);
    const byEmail = Object.fromEntries(first.demo!.accounts.map((a) => [a.email, a.userId]));
    expect(await roles.rolesOf(byEmail[DEMO_ADMIN_EMAIL]!)).toEqual(['admin']);
    expect(await roles.rolesOf(byEmail['nova@canto.local']!)).toEqual(['artist']);
    expect(await roles.rolesOf(byEmail['owls@canto.local']!)).toEqual(['artist']);
    expect(await roles.rolesOf(byEmail['river@canto.local']!)).toEqual(['pending_artist']);
    expect(await roles.rolesOf(byEmail['ana@canto.local']!)).toEqual([]);
    // Artists' bios, written through the social module like every profile change.
    const bios = (await t.db.database.db.execute(
      `select u.email, p.bio from profiles p join users u on u.id = p.user_id
       where p.bio is not null order by u.email` as never,
    )) as unknown as { rows: { email: string; bio: string }[] };
    expect(bios.rows.map((r) => r.email)).toEqual([
      'ana@canto.local',
      'nova@canto.local',
      'owls@canto.local',
      'river@canto.local',
    ]);
    const res = await signIn(t.app, 'nova@canto.local', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
  });

  it('covers the genres and stores every file where its URL points', async () => {
    const rows = (await t.db.database.db.execute(
      'select id, genre, file_url, file_key, cover_art_url, cover_art_key, duration_ms, play_count, artist from songs' as never,
    )) as unknown as { rows: Record<string, string | number>[] };
    expect(new Set(rows.rows.map((r) => r.genre)).size).toBe(8);
    for (const r of rows.rows) {
      expect(r.file_url).toBe(`/media/music/${r.file_key}`);
      expect(r.cover_art_url).toBe(`/media/cover-art/${r.cover_art_key}`);
      const wav = fs.statSync(path.join(t.db.dataDir, 'media', 'music', String(r.file_key)));
      // 44-byte header + 16-bit mono samples at 22.05 kHz for the stored duration.
      expect(wav.size).toBe(44 + Math.round((Number(r.duration_ms) / 1000) * 22_050) * 2);
      expect(Number(r.duration_ms)).toBeGreaterThanOrEqual(20_000);
      expect(Number(r.duration_ms)).toBeLessThanOrEqual(40_000);
      expect(
        fs.readFileSync(
          path.join(t.db.dataDir, 'media', 'cover-art', String(r.cover_art_key)),
          'utf8',
        ),
      ).toMatch(/^<svg/);
      expect(Number(r.play_count)).toBeGreaterThan(0);
      expect(r.artist).toMatch(/Nova Lumen|The Night Owls/);
    }
    // The stored path alone is refused; the URL the API hands out (signed) plays.
    const first = rows.rows[0]!;
    expect((await t.app.inject({ method: 'GET', url: String(first.file_url) })).statusCode).toBe(
      403,
    );
    const { access_token } = (await signIn(t.app, 'ana@canto.local', DEMO_PASSWORD)).json();
    const song = await t.app.inject({
      method: 'GET',
      url: `/api/songs/${first.id}`,
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(song.statusCode, song.body).toBe(200);
    const media = await t.app.inject({ method: 'GET', url: song.json().file_url });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toContain('audio/wav');
  });

  it('shows the product: an ad for the free tier, Popular unlike Recent, Trending unlike New Releases, complete artist profiles', async () => {
    const { access_token } = (await signIn(t.app, 'ben@canto.local', DEMO_PASSWORD)).json();
    const as = (url: string, method: 'GET' | 'POST' = 'GET') =>
      t.app.inject({ method, url, headers: { authorization: `Bearer ${access_token}` } });
    const titles = (songs: { title: string }[]) => songs.map((s) => s.title);

    const home = (await as('/api/songs/home')).json<{
      recent: { title: string }[];
      popular: { title: string }[];
    }>();
    expect(home.recent.length).toBeGreaterThanOrEqual(6);
    const [recent, popular] = [titles(home.recent).slice(0, 6), titles(home.popular).slice(0, 6)];
    expect(popular).not.toEqual(recent);
    // Not just reordered: the most played include songs the newest six leave out.
    expect(popular.filter((title) => !recent.includes(title)).length).toBeGreaterThanOrEqual(3);
    const browse = (await as('/api/songs/browse')).json<{
      trending: { title: string }[];
      new_releases: { title: string }[];
    }>();
    const [trending, newest] = [titles(browse.trending), titles(browse.new_releases)];
    expect(trending.slice(0, 6)).not.toEqual(newest.slice(0, 6));
    expect(
      trending.slice(0, 6).filter((x) => !newest.slice(0, 6).includes(x)).length,
    ).toBeGreaterThanOrEqual(3);

    // A free listener is shown an ad, image and all.
    const ads = await createDemoRepository(t.db.database.db).counts();
    expect(ads.active_ads).toBe(1);
    const showing = await as(ACTIVE_AD_URL, ACTIVE_AD_METHOD);
    expect(showing.statusCode, showing.body).toBe(200);
    const ad = showing.json<{ ad: { title: string; image_url: string | null } | null }>().ad;
    expect(ad?.title).toBe('Canto Premium');
    expect((await t.app.inject({ url: ad!.image_url! })).statusCode).toBe(200);

    // Every artist's profile: name, bio and an avatar that loads.
    const byEmail = Object.fromEntries(first.demo!.accounts.map((a) => [a.email, a.userId]));
    for (const email of ['nova@canto.local', 'owls@canto.local', 'river@canto.local']) {
      const res = await as(`/api/profiles/${byEmail[email]}`);
      expect(res.statusCode, res.body).toBe(200);
      const profile = res.json<{ display_name: string; bio: string; avatar_url: string }>();
      expect(profile.display_name, email).toBeTruthy();
      expect(profile.bio, email).toMatch(/\w{3,}/);
      expect(profile.avatar_url, email).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.svg$/);
      const avatar = await t.app.inject({ url: profile.avatar_url });
      expect(avatar.statusCode, email).toBe(200);
      expect(avatar.headers['content-type']).toContain('image/svg+xml');
    }
  });

  it('prints the credentials once, in one block', () => {
    expect(t.printed).toHaveLength(1);
    expect(t.printed[0]).toContain(`password of each is: ${DEMO_PASSWORD}`);
    for (const email of [
      DEMO_ADMIN_EMAIL,
      'nova@canto.local',
      'river@canto.local',
      'ana@canto.local',
    ]) {
      expect(t.printed[0]).toContain(email);
    }
  });

  it('does nothing on a second start', async () => {
    const before = await createDemoRepository(t.db.database.db).counts();
    const mediaBefore = fs.readdirSync(path.join(t.db.dataDir, 'media', 'music')).length;
    const second = await t.run();
    expect(second).toEqual({ admin: 'none', demo: null });
    expect(await createDemoRepository(t.db.database.db).counts()).toEqual(before);
    expect(fs.readdirSync(path.join(t.db.dataDir, 'media', 'music'))).toHaveLength(mediaBefore);
    expect(t.printed).toHaveLength(1);
  });
});

describe.each(dbKinds)('ADMIN_EMAIL bootstrap on %s', (kind) => {
  let t: Awaited<ReturnType<typeof setup>>;
  afterAll(async () => {
    await t?.app.close();
    await t?.db.drop();
  });

  beforeAll(async () => {
    t = await setup(kind, {
      DEMO: '1',
      ADMIN_EMAIL: 'Boss@Example.test',
      ADMIN_PASSWORD: 'from-the-env',
    });
  });

  it('promotes an existing account without touching its password, and seeds no demo', async () => {
    const { userId } = await t.built.accounts.create({
      email: 'boss@example.test',
      password: 'chosen-later',
      displayName: 'Boss',
    });
    const result = await t.run();
    expect(result).toEqual({ admin: 'promoted', demo: null });
    expect(await createRolesRepository(t.db.database.db).rolesOf(userId)).toEqual(['admin']);
    expect((await signIn(t.app, 'boss@example.test', 'chosen-later')).statusCode).toBe(200);
    const stale = await signIn(t.app, 'boss@example.test', 'from-the-env');
    expect(stale.json().error.code).toBe('invalid_credentials');
    // The database was not empty, so no demo accounts appeared.
    expect(await t.built.accounts.findByEmail('nova@canto.local')).toBeNull();
    // Idempotent across restarts.
    expect(await t.run()).toEqual({ admin: 'promoted', demo: null });
  });
});

describe('ADMIN_EMAIL on a fresh database with demo content', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  afterAll(async () => {
    await t?.app.close();
    await t?.db.drop();
  });

  it('creates the admin from the environment and leaves out the demo admin', async () => {
    t = await setup('pglite', {
      DEMO: '1',
      ADMIN_EMAIL: 'root@example.test',
      ADMIN_PASSWORD: 'root-password',
    });
    const result = await t.run();
    expect(result.admin).toBe('created');
    expect(result.demo?.accounts.map((a) => a.email)).not.toContain(DEMO_ADMIN_EMAIL);
    expect(result.demo?.accounts).toHaveLength(6);
    const admin = await t.built.accounts.findByEmail('root@example.test');
    expect(await createRolesRepository(t.db.database.db).rolesOf(admin!.userId)).toEqual(['admin']);
    expect((await signIn(t.app, 'root@example.test', 'root-password')).statusCode).toBe(200);
    expect(t.printed[0]).not.toContain(DEMO_ADMIN_EMAIL);
  }, 120_000);
});

describe.each(dbKinds)('a demo seed that stopped half way on %s', (kind) => {
  let t: Awaited<ReturnType<typeof setup>>;
  afterAll(async () => {
    await t?.app.close();
    await t?.db.drop();
  });

  it('resumes on the next start: no duplicate accounts, no orphan files, full content', async () => {
    t = await setup(kind, { DEMO: '1' });
    const mediaRoot = path.join(t.db.dataDir, 'media');
    const real = createLocalStorage(mediaRoot);
    // The sixth file fails: the accounts exist, some media was written, no content rows.
    let puts = 0;
    const failing: Storage = {
      ...real,
      put: async (...args: Parameters<Storage['put']>) => {
        if (++puts === 6) throw new Error('disk full');
        return real.put(...args);
      },
    };
    const broken = await bootstrap({
      env: t.env,
      database: t.db.database,
      log: silent,
      accounts: t.built.accounts,
      roles: t.built.roles,
      profiles: t.built.profiles,
      storage: failing,
      print: (text) => t.printed.push(text),
    });
    expect(broken.demo).toBeNull();
    const repo = createDemoRepository(t.db.database.db);
    expect(await repo.counts()).toMatchObject({ users: 7, songs: 0, podcasts: 0 });
    expect(t.printed).toHaveLength(0);

    const resumed = await t.run();
    expect(resumed.demo?.songs).toBe(12);
    expect(resumed.demo?.accounts).toHaveLength(7);
    expect(await repo.counts()).toMatchObject({ users: 7, songs: 12, podcasts: 1, episodes: 3 });
    // 12 songs × (audio + cover), the show's cover, 3 episodes, the ad's image, 3 artists'
    // avatars: nothing left from the failure.
    const files = ['music', 'cover-art', 'podcasts', 'avatars'].flatMap((b) =>
      fs.existsSync(path.join(mediaRoot, b)) ? fs.readdirSync(path.join(mediaRoot, b)) : [],
    );
    expect(files).toHaveLength(12 * 2 + 1 + 3 + 1 + 3);
    expect((await signIn(t.app, 'nova@canto.local', DEMO_PASSWORD)).statusCode).toBe(200);
    expect(t.printed).toHaveLength(1);
    // And a third start finds a used database.
    expect((await t.run()).demo).toBeNull();
  }, 120_000);

  it('never resumes into a database someone else uses', async () => {
    const other = await setup(kind, { DEMO: '1' });
    try {
      await other.built.accounts.create({
        email: 'nova@canto.local',
        password: DEMO_PASSWORD,
        displayName: 'Nova Lumen',
      });
      await other.built.accounts.create({
        email: 'someone@example.test',
        password: 'their-password',
        displayName: 'Someone',
      });
      expect((await other.run()).demo).toBeNull();
      expect(await createDemoRepository(other.db.database.db).counts()).toMatchObject({
        users: 2,
        songs: 0,
      });
    } finally {
      await other.app.close();
      await other.db.drop();
    }
  }, 120_000);
});
