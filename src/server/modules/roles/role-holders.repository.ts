import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userRoles, users } from '../../db/schema/index.ts';
import type { Role } from '../../../contracts/auth.contract.ts';

export type RoleHoldersRepository = ReturnType<typeof createRoleHoldersRepository>;

/** Accounts looked up by email for operator tools (the admin CLI); no credentials leave here. */
export function createRoleHoldersRepository(db: Db) {
  return {
    /** `email` as stored: trimmed and lower-cased. */
    async findUserId(email: string): Promise<string | null> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      return rows[0]?.id ?? null;
    },
    /** Every account with at least one role, by email; roles sorted by name. */
    async listRoleHolders(): Promise<{ email: string; roles: Role[] }[]> {
      const rows = await db
        .select({ email: users.email, role: userRoles.role })
        .from(userRoles)
        .innerJoin(users, eq(users.id, userRoles.userId))
        .orderBy(asc(users.email));
      const byEmail = new Map<string, Role[]>();
      for (const r of rows) byEmail.set(r.email, [...(byEmail.get(r.email) ?? []), r.role]);
      return [...byEmail].map(([email, roles]) => ({ email, roles: roles.sort() }));
    },
  };
}
