import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { songs, subsonicAppPasswords, users } from '../../db/schema/index.ts';

export type SubsonicPasswordsRepository = ReturnType<typeof createSubsonicPasswordsRepository>;
export type AppPasswordRow = typeof subsonicAppPasswords.$inferSelect;

export function createSubsonicPasswordsRepository(db: Db) {
  return {
    async insert(values: { id: string; userId: string; name: string; sealedSecret: string }) {
      const [row] = await db.insert(subsonicAppPasswords).values(values).returning();
      return row!;
    },

    async countOf(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(subsonicAppPasswords)
        .where(eq(subsonicAppPasswords.userId, userId));
      return row?.n ?? 0;
    },

    listOf(userId: string): Promise<AppPasswordRow[]> {
      return db
        .select()
        .from(subsonicAppPasswords)
        .where(eq(subsonicAppPasswords.userId, userId))
        .orderBy(asc(subsonicAppPasswords.createdAt), asc(subsonicAppPasswords.id));
    },

    async byId(id: string): Promise<AppPasswordRow | undefined> {
      const [row] = await db
        .select()
        .from(subsonicAppPasswords)
        .where(eq(subsonicAppPasswords.id, id))
        .limit(1);
      return row;
    },

    /** Only the owner's row goes; false when there is none. */
    async delete(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(subsonicAppPasswords)
        .where(and(eq(subsonicAppPasswords.id, id), eq(subsonicAppPasswords.userId, userId)))
        .returning({ id: subsonicAppPasswords.id });
      return rows.length > 0;
    },

    /** The account an app signs in as: `u` is the email, compared as stored (lower-cased). */
    async userByEmail(email: string): Promise<{ id: string; email: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(eq(users.email, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },

    /**
     * The account `u` names with its sealed app passwords, in one prepared statement: every
     * /rest request signs in, so this is the one lookup it makes for it (the email compared
     * as stored, lower-cased). Undefined when no account has that email.
     */
    async emailOf(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row?.email;
    },

    /** getScanStatus's count: the catalogue's playable songs (a read of the songs table). */
    async songCount(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(songs)
        .where(eq(songs.mediaStatus, 'ready'));
      return Number(row?.n ?? 0);
    },
  };
}
