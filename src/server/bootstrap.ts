import type { FastifyBaseLogger } from 'fastify';
import type { Env } from './env.ts';
import type { Database } from './db/client.ts';

/** Start-up work after migrations: the admin account from ADMIN_EMAIL, then demo content. */
export async function bootstrap(_ctx: { env: Env; database: Database; log: FastifyBaseLogger }): Promise<void> {
  // Filled in by the accounts and demo modules.
}
