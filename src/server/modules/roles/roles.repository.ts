import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userRoles } from '../../db/schema/index.ts';
import type { Role } from '../../../contracts/auth.contract.ts';

export type RolesRepository = ReturnType<typeof createRolesRepository>;

/** user_roles: the only writer of the table (docs/decisions/0024). */
export function createRolesRepository(db: Db) {
  return {
    async rolesOf(userId: string): Promise<Role[]> {
      const rows = await db
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(eq(userRoles.userId, userId));
      return rows.map((r) => r.role);
    },

    /** Idempotent; inside `tx` when the change belongs to a caller's transaction. */
    async grant(userId: string, role: Role, tx: Db = db): Promise<void> {
      await tx.insert(userRoles).values({ userId, role }).onConflictDoNothing();
    },

    /** Returns whether a row was removed; inside `tx` when given. */
    async revoke(userId: string, role: Role, tx: Db = db): Promise<boolean> {
      const removed = await tx
        .delete(userRoles)
        .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)))
        .returning({ userId: userRoles.userId });
      return removed.length > 0;
    },
  };
}
