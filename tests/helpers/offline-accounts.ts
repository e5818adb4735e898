import type { Role } from '../../src/contracts/auth.contract.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createAccountsService } from '../../src/server/modules/auth/accounts.service.ts';
import { createUsersRepository } from '../../src/server/modules/auth/users.repository.ts';
import { createRolesModule } from '../../src/server/modules/roles/roles.module.ts';
import { createProfileRecords } from '../../src/server/modules/social/social.module.ts';

/**
 * An account holding `role`, found or made straight in the database, for a server that opens
 * it next (a crash test's child, the journeys' server; PGlite is one process at a time). It
 * goes through the app's own account service, with the profile and role records buildApp
 * wires into it, so the rows are the ones sign-up makes.
 */
export async function ensureAccountWithRole(
  database: Database,
  account: { email: string; password: string; displayName: string },
  role: Role,
): Promise<string> {
  const roles = createRolesModule({ database }, {});
  const accounts = createAccountsService({
    users: createUsersRepository(database.db),
    profiles: createProfileRecords({ database }),
    roles,
  });
  const userId =
    (await accounts.findByEmail(account.email))?.userId ?? (await accounts.create(account)).userId;
  await roles.grant(userId, role);
  return userId;
}
