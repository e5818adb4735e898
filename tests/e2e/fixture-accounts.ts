// Run by serve.ts on the fresh DATA_DIR before the server starts (PGlite is one process at a
// time): accounts the journeys need that sign-up cannot give them — an approved artist, one
// with a calculated month — made with the app's own account service and roles module,
// without spending sign-ups (rate limited to 5 an hour per address).
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/server/db/client.ts';
import { ensureAccountWithRole } from '../helpers/offline-accounts.ts';
import { E2E_ARTIST, E2E_EARNER, E2E_EARNER_REVENUE_CENTS } from './accounts.ts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('fixture-accounts: DATA_DIR is required');

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
try {
  await database.migrate();
  await ensureAccountWithRole(database, E2E_ARTIST, 'artist');
  // A month long closed (the month-end job recalculates only the month just ended) for the
  // withdrawal journey: the row the monthly run writes.
  const earnerId = await ensureAccountWithRole(database, E2E_EARNER, 'artist');
  await database.db.execute(
    sql`insert into artist_revenue (artist_id, month, premium_revenue_cents, total_revenue_cents)
        values (${earnerId}, '2025-01', ${E2E_EARNER_REVENUE_CENTS}, ${E2E_EARNER_REVENUE_CENTS})
        on conflict (artist_id, month) do nothing`,
  );
} finally {
  await database.close();
}
