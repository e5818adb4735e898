// Run by serve.ts on the fresh DATA_DIR before the server starts (PGlite is one process at a
// time): accounts the journeys need that sign-up cannot give them — an approved artist —
// made with the app's own account service and roles repository, without spending sign-ups
// (rate limited to 5 an hour per address).
import { openDatabase } from '../../src/server/db/client.ts';
import { createUsersRepository } from '../../src/server/modules/auth/users.repository.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import { createAccountsService } from '../../src/server/modules/auth/accounts.service.ts';
import { E2E_ARTIST } from './accounts.ts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('fixture-accounts: DATA_DIR is required');

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
try {
  await database.migrate();
  const accounts = createAccountsService({ users: createUsersRepository(database.db) });
  const roles = createRolesRepository(database.db);
  const existing = await accounts.findByEmail(E2E_ARTIST.email);
  const userId = existing?.userId ?? (await accounts.create(E2E_ARTIST)).userId;
  await roles.grant(userId, 'artist');
} finally {
  await database.close();
}
