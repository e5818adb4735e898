import { describe, expect, it, vi } from 'vitest';
import { createDatabaseHealth, isDatabaseUnavailable } from './database-outage.ts';

// Errors as the drivers raise them: node-postgres' DatabaseError (a SQLSTATE in `code`), a
// socket's errno, pg-pool's own messages, PGlite after close; Drizzle wraps each in `cause`.
const sqlState = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['admin shutdown (pg_terminate_backend)', sqlState('57P01')],
    ['the database starting up', sqlState('57P03')],
    ['a connection exception', sqlState('08006')],
    ['the database renamed or dropped', sqlState('3D000')],
    [
      'the database closed to connections',
      sqlState('55000', 'database "canto" is not currently accepting connections'),
    ],
    ['a refused socket', sqlState('ECONNREFUSED')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect')],
    ['PGlite after close', new Error('PGlite is closed')],
    ['a refused host with two addresses', new AggregateError([sqlState('ECONNREFUSED')])],
  ])('is true for %s, bare or wrapped by Drizzle', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
  });

  it.each([
    ['a unique violation', sqlState('23505')],
    ['an invalid uuid', sqlState('22P02')],
    ['another 55000 (lock not available)', sqlState('55P03')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    if (error) expect(isDatabaseUnavailable(wrapped(error))).toBe(false);
  });
});

describe('database health', () => {
  const logger = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

  it('logs an outage once however many requests meet it, and its end once', async () => {
    let up = false;
    const log = logger();
    const health = createDatabaseHealth({
      ping: async () => {
        if (!up) throw sqlState('57P01');
      },
      log,
      probeMs: 5,
      maxProbeMs: 10,
    });
    for (let i = 0; i < 50; i++) expect(health.failed(sqlState('57P01'))).toBe(true);
    expect(health.failed(sqlState('23505'))).toBe(false);
    expect(await health.check()).toBe(false);
    expect(health.down).toBe(true);
    expect(log.error).toHaveBeenCalledTimes(1);

    // Nobody calls: the probe notices the end by itself.
    up = true;
    await vi.waitFor(() => expect(health.down).toBe(false));
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(await health.check()).toBe(true);
    expect(log.info).toHaveBeenCalledTimes(1);
    health.stop();
  });
});
