import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import { podcasts, profiles, songs } from '../schema/index.ts';

export type SongRow = typeof songs.$inferSelect;
export type PodcastRow = typeof podcasts.$inferSelect;
export type NewSong = Pick<
  typeof songs.$inferInsert,
  | 'artistId'
  | 'artist'
  | 'title'
  | 'genre'
  | 'fileUrl'
  | 'fileKey'
  | 'coverArtUrl'
  | 'coverArtKey'
  | 'durationMs'
>;
export type SongSort = 'relevance' | 'popular' | 'recent';
export type ReleaseNotice = { title: string; message: string; link: string };

export type SongsRepository = ReturnType<typeof createSongsRepository>;

/** `%`, `_` and `\` matched literally inside `ILIKE '%…%' ESCAPE '\'`. */
export function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, '\\$&')}%`;
}

const containsCi = (column: AnyPgColumn, pattern: string) =>
  sql`${column} ilike ${pattern} escape '\\'`;

export function createSongsRepository(db: Db) {
  return {
    async findById(id: string): Promise<SongRow | null> {
      const [row] = await db.select().from(songs).where(eq(songs.id, id)).limit(1);
      return row ?? null;
    },

    async displayNameOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: profiles.displayName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row?.name ?? null;
    },

    /**
     * The song and its `new_release` notice to every follower of the artist, in one
     * transaction; the fan-out is one INSERT … SELECT however many followers there are.
     */
    async insertAndAnnounce(
      song: NewSong,
      notice: (row: SongRow) => ReleaseNotice,
    ): Promise<SongRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(songs).values(song).returning();
        if (!row) throw new Error('song insert returned no row');
        if (row.artistId) {
          const n = notice(row);
          await tx.execute(sql`
            insert into notifications (user_id, type, title, message, link)
            select f.follower_id, 'new_release', ${n.title}, ${n.message}, ${n.link}
            from user_follows f
            where f.following_id = ${row.artistId}`);
        }
        return row;
      });
    },

    async update(
      id: string,
      patch: { title?: string; genre?: string | null },
    ): Promise<SongRow | null> {
      const [row] = await db.update(songs).set(patch).where(eq(songs.id, id)).returning();
      return row ?? null;
    },

    /** Sets the cover and returns the row with the key it replaced (to delete after commit). */
    async replaceCover(
      id: string,
      url: string,
      key: string,
    ): Promise<{ row: SongRow; previousKey: string | null } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ key: songs.coverArtKey })
          .from(songs)
          .where(eq(songs.id, id))
          .for('update')
          .limit(1);
        if (!old) return null;
        const [row] = await tx
          .update(songs)
          .set({ coverArtUrl: url, coverArtKey: key })
          .where(eq(songs.id, id))
          .returning();
        return { row: row!, previousKey: old.key };
      });
    },

    async delete(id: string): Promise<SongRow | null> {
      const [row] = await db.delete(songs).where(eq(songs.id, id)).returning();
      return row ?? null;
    },

    async newest(limit: number): Promise<SongRow[]> {
      return db.select().from(songs).orderBy(desc(songs.createdAt), desc(songs.id)).limit(limit);
    },

    async mostPlayed(limit: number): Promise<SongRow[]> {
      return db
        .select()
        .from(songs)
        .orderBy(desc(songs.playCount), desc(songs.createdAt), desc(songs.id))
        .limit(limit);
    },

    /** Newest first among songs whose genre equals `genre` ignoring case (lower(genre) index). */
    async byGenre(genre: string, limit: number): Promise<SongRow[]> {
      return db
        .select()
        .from(songs)
        .where(sql`lower(${songs.genre}) = ${genre.toLowerCase()}`)
        .orderBy(desc(songs.createdAt), desc(songs.id))
        .limit(limit);
    },

    /**
     * Spec §7: title or genre contains `query` (trigram indexes serve ILIKE '%…%'), an
     * optional case-insensitive genre, sorted by similarity, play count or recency.
     */
    async search(input: {
      query: string;
      genre: string | null;
      sort: SongSort;
      limit: number;
    }): Promise<SongRow[]> {
      const pattern = containsPattern(input.query);
      const where = and(
        or(containsCi(songs.title, pattern), containsCi(songs.genre, pattern)),
        input.genre === null ? undefined : sql`lower(${songs.genre}) = ${input.genre}`,
      );
      const order =
        input.sort === 'popular'
          ? [desc(songs.playCount), desc(songs.createdAt)]
          : input.sort === 'recent'
            ? [desc(songs.createdAt)]
            : [
                desc(
                  sql`greatest(similarity(${songs.title}, ${input.query}), similarity(coalesce(${songs.genre}, ''), ${input.query}))`,
                ),
                desc(songs.playCount),
                desc(songs.createdAt),
              ];
      return db
        .select()
        .from(songs)
        .where(where)
        .orderBy(...order, desc(songs.id))
        .limit(input.limit);
    },

    /** Spec §7: podcasts whose title or description contains `query`, best match first. */
    async searchPodcasts(query: string, limit: number): Promise<PodcastRow[]> {
      const pattern = containsPattern(query);
      return db
        .select()
        .from(podcasts)
        .where(or(containsCi(podcasts.title, pattern), containsCi(podcasts.description, pattern)))
        .orderBy(
          desc(sql`similarity(${podcasts.title}, ${query})`),
          desc(podcasts.createdAt),
          desc(podcasts.id),
        )
        .limit(limit);
    },
  };
}
