import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl } from '../helpers/db-templates.ts';
import { captureLog, eventually } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, type TestUser } from './songs-helpers.ts';

/*
 * A database outage under a running app on the PostgreSQL server (db/database-outage.ts): the
 * app's database is closed to connections and its sessions ended, as a crash or a failover
 * would. Requests that need it answer 503 service_unavailable (never 401, which sends the
 * user to sign in again, nor 500), readiness says 503, liveness stays 200, the log says it
 * once; when the database is back, everything answers again and the log says that once.
 */

async function admin(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe.skipIf(!dbKinds.includes('postgres'))('a database outage on postgres', () => {
  const log = captureLog();
  const ctx = useTestApp('postgres', { JOB_POLL_INTERVAL_MS: '50' }, { logger: log.logger });
  let user: TestUser;
  let name: string;

  const closeDatabase = async () => {
    await admin(`alter database "${name}" allow_connections false`);
    await admin(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
  };
  const openDatabase = () => admin(`alter database "${name}" allow_connections true`);
  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers });
  const lines = (msg: string) => log.lines.filter((l) => l.msg === msg);

  beforeAll(async () => {
    name = new URL(ctx.db.url!).pathname.slice(1);
    user = await makeUser(ctx, 'listener', 'Outage Listener');
    await ctx.jobs.start();
  });
  // Whatever happened, the database is open again for the app's close and the drop.
  afterAll(() => openDatabase());

  it('answers 503 while the database is away, says so once, and recovers', async () => {
    expect((await get('/api/health/ready')).json()).toEqual({
      status: 'ok',
      database: 'ok',
      jobs: 'ok',
    });
    expect((await get('/api/me/notifications', user.headers)).statusCode).toBe(200);

    await closeDatabase();
    for (const url of ['/api/auth/session', '/api/me/notifications', '/api/songs']) {
      for (let i = 0; i < 3; i++) {
        const res = await get(url, user.headers);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
        expect(res.json().error.code).toBe('service_unavailable');
      }
    }
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'down', jobs: 'down' });
    expect((await get('/api/health')).statusCode).toBe(200);

    // A second of the job worker polling every 50 ms and readiness polled: still one line.
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 200));
      expect((await get('/api/health/ready')).statusCode).toBe(503);
    }
    expect(lines('database unavailable: requests that need it answer 503')).toHaveLength(1);
    expect(log.lines.filter((l) => l.level >= 50)).toHaveLength(1);

    await openDatabase();
    expect(
      await eventually(async () => (await get('/api/health/ready')).statusCode === 200, 10_000),
    ).toBe(true);
    const back = await get('/api/auth/session', user.headers);
    expect(back.statusCode).toBe(200);
    expect(back.json().user.id).toBe(user.userId);
    expect(lines('database available again')).toHaveLength(1);
    expect(log.lines.filter((l) => l.level >= 50)).toHaveLength(1);
  });
});

// The embedded engine has no outage of its own; a closed one stands for it, and its error
// maps the same way.
describe('a closed database on pglite', () => {
  const ctx = useTestApp('pglite');

  it('answers 503 service_unavailable to a signed-in request, not 401 or 500', async () => {
    const user = await makeUser(ctx, 'listener', 'Closed Listener');
    await ctx.db.database.close();
    for (const url of ['/api/auth/session', '/api/me/notifications']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: user.headers });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error.code).toBe('service_unavailable');
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(
      503,
    );
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
