import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { profiles, userRoles } from '../schema/index.ts';
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
      const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
      return rows.map((r) => r.role);
    },

    async grant(userId: string, role: Role): Promise<void> {
      await db.insert(userRoles).values({ userId, role }).onConflictDoNothing();
    },

    /** Returns whether a row was removed. */
    revoke: (userId: string, role: Role) => revoke(db, userId, role),

    /** Replaces one role by another atomically; false when `from` was not held. */
    async replace(userId: string, from: Role, to: Role): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await revoke(tx as unknown as Db, userId, from))) return false;
        await tx.insert(userRoles).values({ userId, role: to }).onConflictDoNothing();
        return true;
      });
    },

    /** Pending artist requests, oldest first, with the requester's display name. */
    async pendingArtists() {
      return db
        .select({ userId: userRoles.userId, displayName: profiles.displayName, requestedAt: userRoles.createdAt })
        .from(userRoles)
        .leftJoin(profiles, eq(profiles.userId, userRoles.userId))
        .where(eq(userRoles.role, 'pending_artist'))
        .orderBy(asc(userRoles.createdAt));
    },
  };
}
