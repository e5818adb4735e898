import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userRoles } from '../../db/schema/index.ts';
import type { Role } from '../../../contracts/auth.contract.ts';

export type RolesRepository = ReturnType<typeof createRolesRepository>;

export function createRolesRepository(db: Db) {
  const revoke = async (tx: Db, userId: string, role: Role) => {
    const removed = await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)))
      .returning({ userId: userRoles.userId });
    return removed.length > 0;
  };

  return {
    async rolesOf(userId: string): Promise<Role[]> {
      const rows = await db
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(eq(userRoles.userId, userId));
      return rows.map((r) => r.role);
    },

    async grant(userId: string, role: Role): Promise<void> {
      await db.insert(userRoles).values({ userId, role }).onConflictDoNothing();
    },

    /** Returns whether a row was removed. */
    revoke: (userId: string, role: Role) => revoke(db, userId, role),
  };
}
