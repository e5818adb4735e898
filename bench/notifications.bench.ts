/**
 * Notifications bench (ADR 0021), on PostgreSQL through the
 * production server (server-process.ts: `npm start`'s own command on a throwaway database
 * `canto_bench_<rand>`, dropped afterwards):
 *
 * (1) new_release fan-out to 100,000 followers: an artist's real song upload over HTTP (a
 *     1 s WAV), from the request to its 201; the notices are written in the upload's
 *     transaction, and the 100,000 rows are checked. Beside, in the same run: the same upload
 *     by an artist with no followers (what the fan-out adds), and the bare
 *     `INSERT INTO notifications … SELECT … FROM user_follows` of the same 100,000 rows sent
 *     straight to PostgreSQL (the floor). Median of 3; the table is emptied before each.
 * (2) Live delivery with 1,000 sockets open on GET /api/me/notifications/live, each a
 *     different user (Bearer token, Origin = PUBLIC_URL): per socket, the time from the start
 *     of the request that makes its notification to the frame's arrival, p50/p95/p99, for
 *       - one fan-out: an artist whose 1,000 followers are the socket holders uploads a song
 *         (3 uploads, pooled);
 *       - the 100,000-follower artist's upload, the 1,000 holders among its followers;
 *       - 1,000 follows (new_follower), one of each holder, started at 100/s.
 *     Beside each: a bare `ws` server (http + ws, nothing else) spawned the same way, with
 *     the same 1,000 sockets, the same frame shape and the same pattern of HTTP triggers
 *     (one broadcast trigger; 1,000 single-socket triggers at 100/s).
 *
 * The accounts are made with SQL (users + profiles + user_follows from generate_series; they
 * cannot sign in). Sign-in is argon2-bound and rate-limited to 30 a 5 minutes per address,
 * so the 1,000 sessions are minted in this process by the app's own session code
 * (sessions.service.ts `start`, with the server's SECRET_KEY and signing key): the sockets
 * present ordinary access tokens of ordinary session rows, verified by the server as any.
 *
 * Run alone: npx tsx bench/notifications.bench.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { NOTIFICATIONS_LIVE_PATH } from '../src/contracts/notifications.contract.ts';
import { systemClock } from '../src/core/clock.ts';
import { openPostgres, type Database } from '../src/server/db/client.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import { wavHeader } from '../src/server/demo/synth.ts';
import { createSessionsRepository } from '../src/server/modules/auth/sessions.repository.ts';
import { createSessionAccessCache } from '../src/server/modules/auth/session-access-cache.ts';
import { createSessionsService } from '../src/server/modules/auth/sessions.service.ts';
import { createUsersRepository } from '../src/server/modules/auth/users.repository.ts';
import { createRolesModule } from '../src/server/modules/roles/roles.module.ts';
import { createKeyStore } from '../src/server/security/keys.ts';
import { createSecretBox } from '../src/server/security/secret-box.ts';
import { createSigningKeysRepository } from '../src/server/security/signing-keys.repository.ts';
import { median, row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { adminUrl, percentile, postgresReachable } from './catalogue.bench.ts';
import { ensureProductionBuild, startServer, type Server } from './server-process.ts';

const FOLLOWERS = 100_000;
const SOCKETS = 1_000;
const REPEATS = 3;
const FOLLOWS_PER_SECOND = 100;
const TARGET_FANOUT_MS = 3_000;
const TARGET_P99_MS = 200;
const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';
const DAY_MS = 24 * 60 * 60 * 1000;
const round = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------------------------------
// `ws` (the server's own WebSocket library; it ships no types)

type WsClient = {
  send(data: string): void;
  close(): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): WsClient;
  on(event: 'open' | 'close', listener: () => void): WsClient;
  on(event: 'error', listener: (error: Error) => void): WsClient;
  on(
    event: 'unexpected-response',
    listener: (req: unknown, res: { statusCode: number }) => void,
  ): WsClient;
};
const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options?: { headers?: Record<string, string>; perMessageDeflate?: boolean },
) => WsClient;

// ---------------------------------------------------------------------------------------
// Accounts

/** The follower `k`'s id: a version-4-shaped uuid from md5, the same in SQL and here. */
const followerIdSql = sql.raw(
  `(left(md5('bench-follower-' || k), 12) || '4' || substr(md5('bench-follower-' || k), 14, 3)
    || '8' || substr(md5('bench-follower-' || k), 18, 15))::uuid`,
);
function followerId(k: number): string {
  const h = crypto.createHash('md5').update(`bench-follower-${k}`).digest('hex');
  const u = `${h.slice(0, 12)}4${h.slice(13, 16)}8${h.slice(17, 32)}`;
  return `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;
}

async function makeAccount(database: Database, name: string, artist: boolean): Promise<string> {
  const [user] = await queryRows<{ id: string }>(
    database.db,
    sql`insert into users (email, password_hash)
        values (${`bench-${name.toLowerCase().replace(/\W+/g, '-')}@bench.local`}, 'x')
        returning id`,
  );
  await database.db.execute(
    sql`insert into profiles (user_id, display_name) values (${user!.id}, ${name})`,
  );
  if (artist)
    await database.db.execute(
      sql`insert into user_roles (user_id, role) values (${user!.id}, 'artist')`,
    );
  return user!.id;
}

type Accounts = {
  /** 100,000 followers. */
  big: string;
  /** No followers. */
  zero: string;
  /** Followed by the 1,000 socket holders (followers 0–999) only. */
  live: string;
  /** Follows the socket holders one by one in (2). */
  follower: string;
  /** Warms the follow path up before (2)'s recorded follows. */
  warmer: string;
};

async function loadAccounts(database: Database, log: Log): Promise<Accounts> {
  const t = performance.now();
  const accounts: Accounts = {
    big: await makeAccount(database, 'Big Artist', true),
    zero: await makeAccount(database, 'Zero Artist', true),
    live: await makeAccount(database, 'Live Artist', true),
    follower: await makeAccount(database, 'Bench Follower', false),
    warmer: await makeAccount(database, 'Warm Follower', false),
  };
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (id, email, password_hash)
      select ${followerIdSql}, 'bench-follower-' || k || '@bench.local', 'x'
      from generate_series(0, ${FOLLOWERS - 1}) k`);
    await tx.execute(sql`
      insert into profiles (user_id, display_name)
      select ${followerIdSql}, 'Follower ' || k from generate_series(0, ${FOLLOWERS - 1}) k`);
    await tx.execute(sql`
      insert into user_follows (follower_id, following_id)
      select ${followerIdSql}, ${accounts.big}::uuid from generate_series(0, ${FOLLOWERS - 1}) k`);
    await tx.execute(sql`
      insert into user_follows (follower_id, following_id)
      select ${followerIdSql}, ${accounts.live}::uuid from generate_series(0, ${SOCKETS - 1}) k`);
  });
  for (const table of ['users', 'profiles', 'user_follows'])
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  log(
    `  ${FOLLOWERS.toLocaleString()} followers (users, profiles, user_follows) made in ${round((performance.now() - t) / 1000)} s`,
  );
  return accounts;
}

/** Access tokens minted by the app's session code (see the header: sign-in is rate-limited). */
async function sessionMinter(database: Database, publicUrl: string) {
  const db = database.db;
  const keys = await createKeyStore({
    repo: createSigningKeysRepository(db),
    box: createSecretBox(SECRET_KEY, 'signing-keys'),
    now: () => systemClock.now(),
  });
  const sessions = createSessionsService({
    cache: createSessionAccessCache(),
    sessions: createSessionsRepository(db),
    users: createUsersRepository(db),
    roles: createRolesModule({ database }, {}),
    keys,
    issuer: publicUrl,
    audience: `${publicUrl}/api`,
    maxLifetimeMs: 90 * DAY_MS,
    clock: systemClock,
  });
  return async (userIds: string[]): Promise<string[]> => {
    const tokens: string[] = [];
    for (let i = 0; i < userIds.length; i += 20) {
      const batch = userIds.slice(i, i + 20);
      const started = await Promise.all(
        batch.map((id) => sessions.start(id, { ip: '127.0.0.1', userAgent: 'canto-bench' })),
      );
      tokens.push(...started.map((s) => s.access_token));
    }
    return tokens;
  };
}

// ---------------------------------------------------------------------------------------
// HTTP

/** A 1 s, 8 kHz mono tone: probed by ffmpeg like any upload, small enough not to matter. */
function shortWav(): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000), i * 2);
  return Buffer.concat([wavHeader(data.length, rate), data]);
}
const WAV = shortWav();

/** POST /api/songs (multipart: title + file); ms from the request's start to its 201. */
async function upload(url: string, token: string, title: string): Promise<number> {
  const form = new FormData();
  form.set('title', title);
  form.set('file', new Blob([new Uint8Array(WAV)], { type: 'audio/wav' }), 'bench.wav');
  const t = performance.now();
  const res = await fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text.slice(0, 300)}`);
  return ms;
}

async function send(url: string, method: string, token?: string): Promise<void> {
  const res = await fetch(url, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
}

/** Waits for the media jobs of the uploads so far (their ffmpeg must not overlap a figure). */
async function jobsIdle(database: Database) {
  const until = Date.now() + 120_000;
  for (;;) {
    const [r] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from jobs where state in ('queued', 'running')`,
    );
    if (r!.n === 0) return;
    if (Date.now() > until) throw new Error('media jobs still running after 120 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const countNewReleases = async (database: Database) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from notifications where type = 'new_release'`,
    )
  )[0]!.n;

// ---------------------------------------------------------------------------------------
// (1) Fan-out

/** The floor: the fan-out's rows, written by the plainest statement, straight to PostgreSQL. */
const FLOOR_INSERT = `insert into notifications (user_id, type, title, message, link, created_at)
  select follower_id, 'new_release', 'New release', $2, $3, now()
  from user_follows where following_id = $1`;
const floorParams = (artistId: string, r: number) => [
  artistId,
  `Big Artist released "Big release ${r}"`,
  `/profile/${artistId}`,
];

async function fanOutRows(
  server: Server,
  database: Database,
  dbUrl: string,
  accounts: Accounts,
  tokens: { big: string; zero: string },
  log: Log,
): Promise<BenchRow[]> {
  const floorClient = new pg.Client({ connectionString: dbUrl });
  await floorClient.connect();
  const zero: number[] = [];
  const fan: number[] = [];
  const floor: number[] = [];
  try {
    // One unrecorded upload each: the server's first upload loads ffmpeg's and the
    // multipart code paths.
    await upload(server.url, tokens.zero, 'Warm-up');
    await jobsIdle(database);
    for (let r = 1; r <= REPEATS; r++) {
      await database.db.execute(sql`truncate notifications`);
      zero.push(await upload(server.url, tokens.zero, `Zero release ${r}`));
      await jobsIdle(database);

      await database.db.execute(sql`truncate notifications`);
      fan.push(await upload(server.url, tokens.big, `Big release ${r}`));
      const written = await countNewReleases(database);
      if (written !== FOLLOWERS)
        throw new Error(`the upload wrote ${written} new_release rows, not ${FOLLOWERS}`);
      await jobsIdle(database);

      await database.db.execute(sql`truncate notifications`);
      const t = performance.now();
      const inserted = await floorClient.query(FLOOR_INSERT, floorParams(accounts.big, r));
      floor.push(performance.now() - t);
      if (inserted.rowCount !== FOLLOWERS)
        throw new Error(`the bare insert wrote ${inserted.rowCount} rows`);
      log(
        `  fan-out ${r}/${REPEATS}: upload with ${FOLLOWERS.toLocaleString()} followers ${Math.round(fan.at(-1)!)} ms, with 0 ${Math.round(zero.at(-1)!)} ms; bare INSERT … SELECT ${Math.round(floor.at(-1)!)} ms`,
      );
    }
    // What the floor's time goes to (the upload's statement is the same INSERT … SELECT).
    await database.db.execute(sql`truncate notifications`);
    await floorClient.query('begin');
    const plan = await floorClient.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${FLOOR_INSERT}`,
      floorParams(accounts.big, 0),
    );
    await floorClient.query('rollback');
    log('  EXPLAIN ANALYZE of the bare INSERT … SELECT (rolled back):');
    for (const line of plan.rows) log(`    ${line['QUERY PLAN']}`);
  } finally {
    await floorClient.end();
    await database.db.execute(sql`truncate notifications`);
  }
  const [fanMs, zeroMs, floorMs] = [median(fan), median(zero), median(floor)];
  const k = `${FOLLOWERS / 1000}k`;
  return [
    row(
      `new_release fan-out to ${k} followers: upload → 201 (median of ${REPEATS})`,
      fanMs,
      zeroMs,
      'lower',
      {
        unit: 'ms',
        baselineName: 'same upload, 0 followers',
        target: { text: `< ${TARGET_FANOUT_MS / 1000} s`, met: fanMs < TARGET_FANOUT_MS },
      },
    ),
    row(`fan-out's own time (${k} − 0 followers)`, fanMs - zeroMs, floorMs, 'lower', {
      unit: 'ms',
      baselineName: `bare INSERT … SELECT of ${k} rows`,
    }),
  ];
}

// ---------------------------------------------------------------------------------------
// (2) Live delivery

type Frame = { type: string; notification?: { type: string } };

/**
 * 1,000 open sockets and what they receive. A phase names the frames it waits for (by
 * notification type) and each socket's trigger start; the first such frame per socket ends
 * its wait.
 */
class Sockets {
  readonly list: WsClient[] = [];
  private phase:
    | {
        type: string;
        starts: Float64Array;
        arrived: Float64Array;
        left: number;
        done: () => void;
      }
    | undefined;
  unexpectedCloses = 0;
  private closing = false;

  async open(
    count: number,
    options: (i: number) => { url: string; headers: Record<string, string> },
  ) {
    const t = performance.now();
    let next = 0;
    const one = async () => {
      while (next < count) {
        const i = next++;
        const { url, headers } = options(i);
        const socket = new WebSocket(url, { headers, perMessageDeflate: false });
        await new Promise<void>((resolve, reject) => {
          socket.on('open', () => resolve());
          socket.on('unexpected-response', (_req, res) =>
            reject(new Error(`socket ${i}: the handshake answered ${res.statusCode}`)),
          );
          socket.on('error', reject);
        });
        socket.on('message', (data) => this.received(i, data));
        socket.on('close', () => {
          if (!this.closing) this.unexpectedCloses += 1;
        });
        this.list[i] = socket;
      }
    };
    await Promise.all(Array.from({ length: 50 }, one));
    return performance.now() - t;
  }

  private received(i: number, data: Buffer) {
    const p = this.phase;
    if (!p) return;
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.type !== 'notification' || frame.notification?.type !== p.type) return;
    if (!Number.isNaN(p.arrived[i]!)) return;
    p.arrived[i] = performance.now();
    if (--p.left === 0) p.done();
  }

  /**
   * Runs `trigger` (which sets each socket's start in `starts`) and resolves with each
   * socket's latency once every socket has its frame.
   */
  async measure(type: string, trigger: (starts: Float64Array) => Promise<void>): Promise<number[]> {
    const n = this.list.length;
    const starts = new Float64Array(n).fill(Number.NaN);
    const arrived = new Float64Array(n).fill(Number.NaN);
    const all = new Promise<void>(
      (done) => (this.phase = { type, starts, arrived, left: n, done }),
    );
    try {
      await trigger(starts);
      await withTimeout(30_000, `${type} frames on ${n} sockets`, all);
    } catch (error) {
      const missing = arrived.filter((a) => Number.isNaN(a)).length;
      throw new Error(`${(error as Error).message} (${missing} sockets without one)`, {
        cause: error,
      });
    } finally {
      this.phase = undefined;
    }
    return Array.from(arrived, (a, i) => a - starts[i]!);
  }

  close() {
    this.closing = true;
    for (const socket of this.list) socket.terminate();
  }
}

type Stats = { p50: number; p95: number; p99: number };
const stats = (xs: number[]): Stats => ({
  p50: percentile(xs, 50),
  p95: percentile(xs, 95),
  p99: percentile(xs, 99),
});
const fmtStats = (s: Stats) => `p50 ${round(s.p50)} / p95 ${round(s.p95)} / p99 ${round(s.p99)} ms`;

/** Calls `each(i)` for i in 0..n-1, the i-th started at i / rate s (open loop: no waiting). */
async function paced(n: number, perSecond: number, each: (i: number) => Promise<void>) {
  const t0 = performance.now();
  const runs: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const due = t0 + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    runs.push(each(i));
  }
  await Promise.all(runs);
}

/** Lets a warm-up's frames arrive before a measured phase, which would count them. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

type Delivery = { fanOut: number[]; bigFanOut: number[]; single: number[]; openMs: number };

async function cantoDelivery(
  server: Server,
  database: Database,
  publicUrl: string,
  tokens: { holders: string[]; live: string; big: string; follower: string; warmer: string },
  log: Log,
): Promise<Delivery> {
  const sockets = new Sockets();
  const wsUrl = `${server.url.replace(/^http/, 'ws')}${NOTIFICATIONS_LIVE_PATH}`;
  try {
    const openMs = await sockets.open(SOCKETS, (i) => ({
      url: wsUrl,
      headers: { authorization: `Bearer ${tokens.holders[i]}`, origin: publicUrl },
    }));
    log(`  canto: ${SOCKETS} authenticated sockets open in ${Math.round(openMs)} ms`);

    const fanOut: number[] = [];
    for (let r = 0; r <= REPEATS; r++) {
      let uploadMs = 0;
      const latencies = await sockets.measure('new_release', async (starts) => {
        starts.fill(performance.now());
        uploadMs = await upload(server.url, tokens.live, `Live release ${r}`);
      });
      await jobsIdle(database);
      // The first is a warm-up (the read-back and the 1,000 sends run for the first time).
      if (r > 0) fanOut.push(...latencies);
      log(
        `  canto: fan-out to ${SOCKETS} connected followers${r === 0 ? ' (warm-up)' : ''}: upload 201 after ${Math.round(uploadMs)} ms; frames ${fmtStats(stats(latencies))}`,
      );
    }

    let bigUploadMs = 0;
    const bigFanOut = await sockets.measure('new_release', async (starts) => {
      starts.fill(performance.now());
      bigUploadMs = await upload(server.url, tokens.big, 'Big live release');
    });
    await jobsIdle(database);
    log(
      `  canto: fan-out to ${FOLLOWERS.toLocaleString()} followers, ${SOCKETS} connected: upload 201 after ${Math.round(bigUploadMs)} ms; frames ${fmtStats(stats(bigFanOut))}`,
    );
    await database.db.execute(sql`truncate notifications`);

    // Warm-up of the follow path: another account follows the first 20 holders.
    for (let i = 0; i < 20; i++)
      await send(`${server.url}/api/follows/${followerId(i)}`, 'PUT', tokens.warmer);
    await settle();
    const single = await sockets.measure('new_follower', (starts) =>
      paced(SOCKETS, FOLLOWS_PER_SECOND, async (i) => {
        starts[i] = performance.now();
        await send(`${server.url}/api/follows/${followerId(i)}`, 'PUT', tokens.follower);
      }),
    );
    log(
      `  canto: ${SOCKETS} follows at ${FOLLOWS_PER_SECOND}/s, one a socket: frames ${fmtStats(stats(single))}`,
    );
    if (sockets.unexpectedCloses > 0)
      throw new Error(`${sockets.unexpectedCloses} sockets closed during the run`);
    return { fanOut, bigFanOut, single, openMs };
  } finally {
    sockets.close();
  }
}

/** The baseline server: node http + ws, one socket per ?user=, triggers over HTTP. */
function bareWsScript(): string {
  const file = path.join(path.resolve(import.meta.dirname, '..'), '.tmp', 'bench-bare-ws.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `import crypto from 'node:crypto';
import http from 'node:http';
import { WebSocketServer } from 'ws';
const sockets = new Map();
// The shape and size of Canto's frame (a notification DTO).
const frame = (type, user) => JSON.stringify({ type: 'notification', notification: {
  id: crypto.randomUUID(), type, title: type === 'new_release' ? 'New release' : 'New follower',
  message: 'Bench Follower released "Live release"', link: '/profile/' + user, read: false,
  created_at: new Date().toISOString() } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/api/health') return res.end('{"status":"ok"}');
    if (req.url === '/notify-all') {
      for (const [user, ws] of sockets) ws.send(frame('new_release', user));
      res.statusCode = 201;
      return res.end('{}');
    }
    const one = /^\\/notify\\/(\\d+)$/.exec(req.url);
    if (one && sockets.has(one[1])) {
      sockets.get(one[1]).send(frame('new_follower', one[1]));
      return res.end('{}');
    }
    res.statusCode = 404;
    res.end();
  });
});
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
wss.on('connection', (ws, req) => {
  const user = new URL(req.url, 'http://localhost').searchParams.get('user');
  sockets.set(user, ws);
  ws.on('close', () => sockets.delete(user));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`,
  );
  return file;
}

async function bareDelivery(log: Log): Promise<Delivery> {
  const server = await startServer({ name: 'bare ws', script: bareWsScript() });
  const sockets = new Sockets();
  try {
    const wsUrl = server.url.replace(/^http/, 'ws');
    const openMs = await sockets.open(SOCKETS, (i) => ({
      url: `${wsUrl}/live?user=${i}`,
      headers: { origin: server.url },
    }));
    log(`  bare ws: ${SOCKETS} sockets open in ${Math.round(openMs)} ms`);
    const fanOut: number[] = [];
    for (let r = 0; r <= REPEATS; r++) {
      const latencies = await sockets.measure('new_release', async (starts) => {
        starts.fill(performance.now());
        await send(`${server.url}/notify-all`, 'POST');
      });
      if (r > 0) fanOut.push(...latencies);
    }
    log(`  bare ws: one trigger → ${SOCKETS} sockets: frames ${fmtStats(stats(fanOut))}`);
    for (let i = 0; i < 20; i++) await send(`${server.url}/notify/${i}`, 'POST');
    await settle();
    const single = await sockets.measure('new_follower', (starts) =>
      paced(SOCKETS, FOLLOWS_PER_SECOND, async (i) => {
        starts[i] = performance.now();
        await send(`${server.url}/notify/${i}`, 'POST');
      }),
    );
    log(
      `  bare ws: ${SOCKETS} triggers at ${FOLLOWS_PER_SECOND}/s, one a socket: frames ${fmtStats(stats(single))}`,
    );
    return { fanOut, bigFanOut: [], single, openMs };
  } finally {
    sockets.close();
    await server.stop();
  }
}

function deliveryRows(canto: Delivery, bare: Delivery): BenchRow[] {
  const rows: BenchRow[] = [];
  const add = (label: string, c: number[], b: number[], baselineName: string) => {
    const cs = stats(c);
    const bs = stats(b);
    for (const p of ['p50', 'p95', 'p99'] as const)
      rows.push(
        row(`${label} ${p}`, cs[p], bs[p], 'lower', {
          unit: 'ms',
          baselineName: `${baselineName} ${p}`,
          ...(p === 'p99'
            ? { target: { text: `< ${TARGET_P99_MS} ms`, met: cs.p99 < TARGET_P99_MS } }
            : {}),
        }),
      );
  };
  add(
    `live: one fan-out to ${SOCKETS} sockets (upload start → frame, ×${REPEATS})`,
    canto.fanOut,
    bare.fanOut,
    'bare ws, one broadcast trigger',
  );
  // Its frames wait for the 100,000-row write: the fan-out's own target is theirs.
  const big = stats(canto.bigFanOut);
  rows.push(
    row(
      `live: fan-out to ${FOLLOWERS / 1000}k followers, ${SOCKETS} connected (upload start → frame) p99`,
      big.p99,
      stats(bare.fanOut).p99,
      'lower',
      {
        unit: 'ms',
        baselineName: 'bare ws, one broadcast trigger p99',
        target: {
          text: `< ${TARGET_FANOUT_MS / 1000} s (fan-out)`,
          met: big.p99 < TARGET_FANOUT_MS,
        },
      },
    ),
  );
  add(
    `live: ${SOCKETS} follows at ${FOLLOWS_PER_SECOND}/s (PUT start → frame)`,
    canto.single,
    bare.single,
    `bare ws, ${FOLLOWS_PER_SECOND}/s single triggers`,
  );
  rows.push(
    row(`live: open ${SOCKETS} authenticated sockets`, canto.openMs, bare.openMs, 'lower', {
      unit: 'ms',
      baselineName: `bare ws, ${SOCKETS} sockets`,
    }),
  );
  return rows;
}

// ---------------------------------------------------------------------------------------

async function admin(text: string) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function notificationsBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  if (!(await postgresReachable())) {
    log(`  postgres: not reachable at ${adminUrl}; skipped`);
    return [unavailable('notifications fan-out and live delivery', 'PostgreSQL not reachable')];
  }
  ensureProductionBuild();
  const name = `canto_bench_${crypto.randomBytes(5).toString('hex')}`;
  await admin(`create database "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-notifications-'));
  let database: Database | undefined;
  let server: Server | undefined;
  try {
    database = await openPostgres(dbUrl, 4);
    await database.migrate();
    const accounts = await loadAccounts(database, log);
    let publicUrl = '';
    server = await startServer('canto', (port) => {
      publicUrl = `http://localhost:${port}`;
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: dbUrl,
        DEMO: '0',
        SECRET_KEY,
        PUBLIC_URL: publicUrl,
        // Nothing outside this machine: the external catalogue points at a closed port.
        CATALOGUE_URL: 'http://127.0.0.1:9',
      };
    });
    const mint = await sessionMinter(database, publicUrl);
    const t = performance.now();
    const [big, zero, live, follower, warmer] = await mint([
      accounts.big,
      accounts.zero,
      accounts.live,
      accounts.follower,
      accounts.warmer,
    ]);
    const holders = await mint(Array.from({ length: SOCKETS }, (_, i) => followerId(i)));
    log(`  ${SOCKETS + 5} sessions minted in ${round((performance.now() - t) / 1000)} s`);

    const rows = await fanOutRows(
      server,
      database,
      dbUrl,
      accounts,
      { big: big!, zero: zero! },
      log,
    );
    const canto = await cantoDelivery(
      server,
      database,
      publicUrl,
      { holders, live: live!, big: big!, follower: follower!, warmer: warmer! },
      log,
    );
    await server.stop();
    server = undefined;
    const bare = await bareDelivery(log);
    rows.push(...deliveryRows(canto, bare));
    return rows;
  } finally {
    await server?.stop();
    await database?.close().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists "${name}" with (force)`).catch(() => {});
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await notificationsBench({ log: console.log });
  console.table(rows);
  process.exit(0);
}
