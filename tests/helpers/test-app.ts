import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppDeps, type BuiltApp } from '../../src/server/app.ts';
import type { Clock } from '../../src/core/clock.ts';
import { parseEnv, type Env } from '../../src/server/env.ts';
import type { Mailer, Mail } from '../../src/server/mail/mailer.ts';
import { createTestDatabase, type DbKind, type TestDatabase } from './test-db.ts';

/** The built app (the Fastify instance, its queue, reconciler…) on its own test database. */
export type TestContext = BuiltApp & { db: TestDatabase; env: Env; clock: TestClock; mail: Mail[] };

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(private t = Date.now()) {}
  now() {
    return new Date(this.t);
  }
  advance(ms: number) {
    this.t += ms;
  }
}

export function testEnv(overrides: Record<string, string> = {}, dataDir = '.tmp/unused'): Env {
  return parseEnv({
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    // The month-end job's row would sit in every test database; its own tests turn it on.
    REVENUE_MONTH_END_JOB: '0',
    // Likewise the co-listening refresh's; its tests refresh by hand.
    RECOMMENDATIONS_REFRESH_MINUTES: '0',
    ...overrides,
  });
}

/** Builds an app on a fresh database of `kind` for the enclosing describe block. */
export function useTestApp(
  kind: DbKind,
  envOverrides: Record<string, string> = {},
  // logger: Fastify logger options for a test that reads the log (default: none); hooks:
  // test-only observers (the media lane's answers).
  options: {
    webDir?: () => string;
    logger?: AppDeps['logger'];
    hooks?: Pick<AppDeps, 'mediaLaneAnswered'>;
  } = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.db = await createTestDatabase(kind);
    ctx.env = testEnv(envOverrides, ctx.db.dataDir);
    ctx.clock = new TestClock();
    ctx.mail = [];
    const mailer: Mailer = {
      delivers: Boolean(envOverrides.SMTP_URL),
      send: async (m) => void ctx.mail.push(m),
    };
    Object.assign(
      ctx,
      await buildApp({
        env: ctx.env,
        database: ctx.db.database,
        clock: ctx.clock,
        logger: options.logger ?? false,
        mailer,
        webDir: options.webDir?.(),
        ...options.hooks,
      }),
    );
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.db?.drop();
  });
  return ctx;
}
