import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_LIVE_PATH } from '../../src/contracts/notifications.contract.ts';
import type { SongDto } from '../../src/contracts/songs.contract.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import {
  freePort,
  nginxAvailable,
  renderSiteConfig,
  startNginx,
  writeMediaKeyInclude,
  type RunningNginx,
} from '../helpers/nginx.ts';
import { startS3rver } from '../helpers/s3rver.ts';
import { killServerChildren, startServerChild, type ServerChild } from '../helpers/server-child.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { LiveClient, notificationsApi, WebSocketClient } from './notifications-helpers.ts';
import { makeUser, makeWav, multipart, type TestUser } from './songs-helpers.ts';

/*
 * More than one machine (docs/deploy/README.md, "Several Canto processes"): two real server
 * processes (src/server/main.ts) on one PostgreSQL database and one S3 store (s3rver), behind
 * Debian's nginx with the documented site config and both in its upstream. One is killed
 * (SIGKILL) under listener load while it runs a media job: no listener request fails (nginx
 * retries idempotent ones on the survivor), live sockets reconnect through nginx to the
 * survivor and get its notifications, the killed process's job finishes on the survivor once
 * its lease has run out, and uploads go on.
 *
 * Each process's FFMPEG_PATH is a wrapper that logs its transcode runs (those with ebur128)
 * and holds them while a file exists, so the job is known to be running in one process when
 * that process is killed; that process is the victim, whichever it is.
 */

const onPostgres = dbKinds.includes('postgres');
const withNginx = nginxAvailable();
if (!onPostgres) console.warn('two-instances.test.ts skipped: PostgreSQL is not reachable');
if (!withNginx) {
  if (process.env.CANTO_REQUIRE_NGINX === '1')
    throw new Error('nginx is not installed (CANTO_REQUIRE_NGINX=1)');
  console.warn('two-instances.test.ts skipped: nginx is not installed');
}

const work = path.join(tmpRoot, `two-instances-${process.pid}`);
const hold = path.join(work, 'hold');
const runLog = (name: string) => path.join(work, `runs-${name}.log`);
const runsOf = (name: string) =>
  fs.existsSync(runLog(name)) ? fs.readFileSync(runLog(name), 'utf8').trim().split('\n') : [];

function writeWrapper(name: string): string {
  const file = path.join(work, `ffmpeg-${name}.sh`);
  fs.writeFileSync(
    file,
    `#!/bin/sh
case "$*" in
  *ebur128*)
    echo "$*" >> '${runLog(name)}'
    while [ -f '${hold}' ]; do sleep 0.05; done
    ;;
esac
exec '${ffmpegPackage.path}' "$@"
`,
    { mode: 0o755 },
  );
  return file;
}

async function waitFor<T>(probe: () => Promise<T> | T, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Res = { status: number; body: string };

describe.runIf(onPostgres && withNginx)(
  'two Canto processes behind nginx, one PostgreSQL, one S3 store: one is killed under load',
  () => {
    // The test's own app on the same database: it makes users and sends notifications; it runs
    // no job worker (only the two processes do).
    const ctx = useTestApp('postgres');
    let s3: Awaited<ReturnType<typeof startS3rver>>;
    const servers: Record<'a' | 'b', ServerChild> = {} as never;
    let nginx: RunningNginx;
    let base: string;

    beforeAll(async () => {
      fs.mkdirSync(work, { recursive: true });
      s3 = await startS3rver();
      const shared = {
        DATABASE_URL: ctx.db.url!,
        SECRET_KEY: ctx.env.secretKey!,
        PUBLIC_URL: ctx.env.publicUrl,
        DEMO: '0',
        CANTO_DEV: '1',
        TRUST_PROXY: '127.0.0.1',
        STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: 'canto',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        MEDIA_WORKERS: '1',
        JOB_POLL_INTERVAL_MS: '200',
        // A dead process's job is taken over once its lease has run out.
        JOB_LEASE_SECONDS: '3',
      };
      const [a, b] = await Promise.all(
        (['a', 'b'] as const).map((name) =>
          startServerChild(
            {
              ...shared,
              DATA_DIR: path.join(work, `data-${name}`),
              FFMPEG_PATH: writeWrapper(name),
            },
            { timeoutMs: 60_000 },
          ),
        ),
      );
      Object.assign(servers, { a, b });

      const port = await freePort();
      const hostPort = (url: string) => new URL(url).host;
      // The documented config with the second process added to its upstream, as the README says.
      const site = renderSiteConfig({
        CANTO_LISTEN: `127.0.0.1:${port}`,
        CANTO_SERVER_NAME: 'localhost',
        CANTO_UPSTREAM: hostPort(a!.url),
        CANTO_WEB_DIR: path.join(work, 'web'),
        CANTO_MEDIA_DIR: path.join(work, 'no-local-media'),
        CANTO_MEDIA_KEY_FILE: writeMediaKeyInclude(
          path.join(work, 'media-key.conf'),
          shared.SECRET_KEY,
        ),
      });
      const line = new RegExp(`^ *server ${hostPort(a!.url)}\\b.*$`, 'm').exec(site)?.[0];
      expect(line, site).toBeDefined();
      nginx = await startNginx({
        dir: path.join(work, 'nginx'),
        ports: [port],
        http: site.replace(line!, `${line}\n${line!.replace(hostPort(a!.url), hostPort(b!.url))}`),
      });
      base = `http://127.0.0.1:${port}`;
    }, 90_000);

    afterAll(async () => {
      fs.rmSync(hold, { force: true });
      killServerChildren();
      await nginx?.stop();
      await s3?.stop();
      fs.rmSync(work, { recursive: true, force: true });
    });

    const request = (
      method: string,
      url: string,
      headers: Record<string, string> = {},
      body?: NodeJS.ReadableStream,
    ) =>
      new Promise<Res>((resolve, reject) => {
        const req = http.request(`${base}${url}`, { method, headers }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          res.on('error', reject);
        });
        req.on('error', reject);
        if (body) body.pipe(req);
        else req.end();
      });

    const upload = async (artist: TestUser, title: string) => {
      const { headers, payload } = multipart([
        { name: 'title', value: title },
        { name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: makeWav(1) },
      ]);
      const res = await request('POST', '/api/songs', { ...headers, ...artist.headers }, payload);
      expect(res.status, res.body).toBe(201);
      return JSON.parse(res.body) as SongDto;
    };

    const song = async (artist: TestUser, id: string) => {
      const res = await request('GET', `/api/songs/${id}`, artist.headers);
      expect(res.status, res.body).toBe(200);
      return JSON.parse(res.body) as SongDto;
    };

    /** A live socket through nginx as the web app opens it; resolves once it is open. */
    const openSocket = async (user: TestUser) => {
      const socket = new WebSocketClient(
        `${base.replace('http', 'ws')}${NOTIFICATIONS_LIVE_PATH}`,
        {
          headers: { cookie: `canto_access=${user.token}`, origin: ctx.env.publicUrl },
        },
      );
      const live = new LiveClient(socket);
      await new Promise((resolve, reject) => {
        socket.on('open', resolve);
        socket.on('error', reject);
      });
      return live;
    };

    it('loses no listener request, moves sockets and the running job to the survivor, keeps taking uploads', async () => {
      const artist = await makeUser(ctx, 'artist', 'Two Machines Artist');
      const listener = await makeUser(ctx, 'listener', 'Two Machines Listener');

      // A song whose transcode is held in whichever process took its job: that one is killed.
      fs.writeFileSync(hold, '');
      const held = await upload(artist, 'Held When Killed');
      const victim = await waitFor(
        () => (['a', 'b'] as const).find((name) => runsOf(name).length > 0),
        'a process to start the transcode',
      );
      const survivor = victim === 'a' ? 'b' : 'a';
      const mediaUrl = held.file_url!;

      // Live sockets, spread over both processes by nginx (round robin).
      const sockets = await Promise.all([0, 1, 2, 3].map(() => openSocket(listener)));

      // Listener load: the song, its audio (a redirect to the store) and health, 8 at a time.
      let stop = false;
      let done = 0;
      const failures: string[] = [];
      const expected: Array<[string, Record<string, string>, number]> = [
        [`/api/songs/${held.id}`, artist.headers, 200],
        [mediaUrl, {}, 302],
        ['/api/health', {}, 200],
      ];
      const loops = Array.from({ length: 8 }, async (_, i) => {
        for (let n = i; !stop; n++) {
          const [url, headers, status] = expected[n % expected.length]!;
          try {
            const res = await request('GET', url, headers);
            if (res.status !== status) failures.push(`${url}: ${res.status} ${res.body}`);
          } catch (error) {
            failures.push(`${url}: ${String(error)}`);
          }
          done++;
        }
      });
      await new Promise((r) => setTimeout(r, 500));
      const before = done;
      servers[victim].child.kill('SIGKILL');
      await servers[victim].exited;
      fs.rmSync(hold);

      // Sockets that were on the victim closed; like the web app, they open again, and
      // nginx puts them on the survivor. Every socket then gets what the survivor delivers.
      await waitFor(
        () => (sockets.some((s) => s.closed) ? true : null),
        'a socket on the killed process to close',
        5_000,
      );
      // The victim's other sockets close moments after its first: wait until none has for 500 ms.
      for (let closed = -1; closed !== sockets.filter((s) => s.closed).length;) {
        closed = sockets.filter((s) => s.closed).length;
        await new Promise((r) => setTimeout(r, 500));
      }
      const lost = sockets.filter((s) => s.closed);
      const reopened = await Promise.all(lost.map(() => openSocket(listener)));
      const live = [...sockets.filter((s) => !s.closed), ...reopened];
      expect(live).toHaveLength(4);
      await notificationsApi(ctx).notify({
        userId: listener.userId,
        type: 'system',
        title: 'After the failover',
        message: '',
      });
      for (const s of live) await s.next(LiveClient.titled('After the failover'), 5_000);

      // The killed process's job: taken over once its lease ran out, finished by the survivor.
      const ready = await waitFor(
        async () => ((await song(artist, held.id)).status === 'ready' ? true : null),
        'the held song to be ready',
      );
      expect(ready).toBe(true);
      expect(runsOf(survivor).length).toBeGreaterThan(0);

      // Uploads go on, and are processed.
      const after = await upload(artist, 'Uploaded After');
      await waitFor(
        async () => ((await song(artist, after.id)).status === 'ready' ? true : null),
        'the later song to be ready',
      );

      stop = true;
      await Promise.all(loops);
      expect(done - before).toBeGreaterThan(50);
      expect(failures).toEqual([]);
      for (const s of live) s.socket.close();
    }, 60_000);
  },
);
