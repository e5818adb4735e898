import type { ModuleContext } from '../../module-context.ts';
import { createRoleHoldersRepository } from './role-holders.repository.ts';
import { createRolesRepository, type RolesRepository } from './roles.repository.ts';

/**
 * Roles: who holds `artist`, `pending_artist`, `admin`. No routes: roles
 * change through artist approval, ADMIN_EMAIL and the admin CLI.
 */
export type RolesModule = RolesRepository;

export function createRolesModule(
  ctx: Pick<ModuleContext, 'database'>,
  _deps: Record<string, never>,
): RolesModule {
  return createRolesRepository(ctx.database.db);
}

/** Operator look-ups (the admin CLI): accounts by email and every role holder. */
export const createRoleHolders = createRoleHoldersRepository;
export type { RolesRepository };
