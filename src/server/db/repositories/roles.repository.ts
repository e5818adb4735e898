import { and, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { userRoles } from '../schema/index.ts';
import type { Role } from '../../../contracts/auth.contract.ts';

export type RolesRepository = ReturnType<typeof createRolesRepository>;

export function createRolesRepository(db: Db) {
  return {
    async rolesOf(userId: string): Promise<Role[]> {
      const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
      return rows.map((r) => r.role);
    },
    async grant(userId: string, role: Role, tx: Db = db): Promise<void> {
      await tx.insert(userRoles).values({ userId, role }).onConflictDoNothing();
    },
    /** Returns whether a row was removed. */
    async revoke(userId: string, role: Role, tx: Db = db): Promise<boolean> {
      const removed = await tx
        .delete(userRoles)
        .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)))
        .returning({ userId: userRoles.userId });
      return removed.length > 0;
    },
  };
}
