// Run by serve.ts on the fresh DATA_DIR before the server starts (PGlite is one process at a
// time): accounts the journeys need that sign-up cannot give them — an approved artist —
// made with the app's own account service and roles module, without spending sign-ups
// (rate limited to 5 an hour per address).
import { openDatabase } from '../../src/server/db/client.ts';
import { ensureAccountWithRole } from '../helpers/offline-accounts.ts';
import { E2E_ARTIST } from './accounts.ts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('fixture-accounts: DATA_DIR is required');

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
try {
  await database.migrate();
  await ensureAccountWithRole(database, E2E_ARTIST, 'artist');
} finally {
  await database.close();
}
