import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsCi, containsPattern } from '../../db/contains-pattern.ts';
import {
  podcastEpisodeRenditions,
  podcastEpisodes,
  podcasts,
  profiles,
} from '../../db/schema/index.ts';

export type NewShow = typeof podcasts.$inferInsert;
export type PodcastRow = typeof podcasts.$inferSelect;
/** A show with what its DTO needs beyond the row: the creator's name, its episode count. */
export type ShowRow = typeof podcasts.$inferSelect & {
  creatorName: string | null;
  episodeCount: number;
};
export type ShowPatch = Partial<
  Pick<NewShow, 'title' | 'description' | 'language' | 'category' | 'explicit' | 'ownerEmail'>
>;

export type PodcastsRepository = ReturnType<typeof createPodcastsRepository>;

/** A deleted show's stored keys: its cover (cover-art bucket), its episodes' audio (podcasts). */
export type StoredKeys = { cover: string | null; audio: string[] };

/** Podcast shows (spec §3 podcasts). */
export function createPodcastsRepository(db: Db) {
  const shows = (executor: Db = db) =>
    executor
      .select({
        show: podcasts,
        creatorName: profiles.displayName,
        episodeCount: sql<number>`(select count(*) from ${podcastEpisodes} where ${podcastEpisodes.podcastId} = ${podcasts.id})::int`,
      })
      .from(podcasts)
      .leftJoin(profiles, eq(profiles.userId, podcasts.creatorId));
  const flat = (r: {
    show: typeof podcasts.$inferSelect;
    creatorName: string | null;
    episodeCount: number;
  }): ShowRow => ({
    ...r.show,
    creatorName: r.creatorName,
    episodeCount: Number(r.episodeCount),
  });
  const newestFirst = [desc(podcasts.createdAt), desc(podcasts.id)];
  const findById = async (id: string): Promise<ShowRow | null> => {
    const [row] = await shows().where(eq(podcasts.id, id)).limit(1);
    return row ? flat(row) : null;
  };

  return {
    /** Every show, newest first (spec §7 "read all newest first"). */
    async all(): Promise<ShowRow[]> {
      return (await shows().orderBy(...newestFirst)).map(flat);
    },

    /** A creator's shows, newest first (the upload form's choice of show). */
    /** Spec §7: shows whose title or description contains `query`, best match first. */
    async search(query: string, limit: number): Promise<PodcastRow[]> {
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

    async byCreator(creatorId: string): Promise<ShowRow[]> {
      return (
        await shows()
          .where(eq(podcasts.creatorId, creatorId))
          .orderBy(...newestFirst)
      ).map(flat);
    },

    findById,

    /** A new show; its id is the caller's (the feed URL and guid are made from it first). */
    async insert(show: NewShow & { id: string }): Promise<ShowRow> {
      await db.insert(podcasts).values(show);
      const row = await findById(show.id);
      if (!row) throw new Error('podcast insert left no row');
      return row;
    },

    /**
     * Deletes a show with all its episodes (ON DELETE CASCADE, and from them their
     * renditions and progress). The show's row lock comes first: an episode insert waits for
     * it (its foreign key), so no episode is added unseen; then each episode's lock, as the
     * media job takes it to store an outcome, so the renditions read here are all there will
     * be. Null when it is gone; otherwise every storage key the rows named (cover, originals,
     * waveforms, renditions), for the caller to delete once this has committed.
     */
    async delete(
      id: string,
    ): Promise<{ row: typeof podcasts.$inferSelect; keys: StoredKeys } | null> {
      return db.transaction(async (tx) => {
        const [show] = await tx
          .select({ id: podcasts.id })
          .from(podcasts)
          .where(eq(podcasts.id, id))
          .for('update');
        if (!show) return null;
        const episodes = await tx
          .select({
            id: podcastEpisodes.id,
            audioKey: podcastEpisodes.audioKey,
            waveformKey: podcastEpisodes.waveformKey,
          })
          .from(podcastEpisodes)
          .where(eq(podcastEpisodes.podcastId, id))
          .orderBy(podcastEpisodes.id)
          .for('update');
        const ids = episodes.map((e) => e.id);
        const renditions =
          ids.length === 0
            ? []
            : await tx
                .select({ key: podcastEpisodeRenditions.fileKey })
                .from(podcastEpisodeRenditions)
                .where(inArray(podcastEpisodeRenditions.episodeId, ids));
        const [row] = await tx.delete(podcasts).where(eq(podcasts.id, id)).returning();
        if (!row) return null;
        return {
          row,
          keys: {
            cover: row.coverArtKey,
            audio: [
              ...episodes.flatMap((e) => [e.audioKey, e.waveformKey]),
              ...renditions.map((r) => r.key),
            ].filter((k): k is string => k !== null),
          },
        };
      });
    },

    /**
     * Changes a show under its row lock; with `cover`, the new cover's URL and key, and the
     * key it replaced comes back (to delete once this has committed). Null when it is gone.
     */
    async update(
      id: string,
      patch: ShowPatch,
      cover?: { url: string; key: string },
    ): Promise<{ row: ShowRow; previousCoverKey: string | null } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ coverArtKey: podcasts.coverArtKey })
          .from(podcasts)
          .where(eq(podcasts.id, id))
          .for('update')
          .limit(1);
        if (!old) return null;
        await tx
          .update(podcasts)
          .set({
            ...patch,
            ...(cover ? { coverArtUrl: cover.url, coverArtKey: cover.key } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(podcasts.id, id));
        const [row] = await shows(tx).where(eq(podcasts.id, id)).limit(1);
        return {
          row: flat(row!),
          previousCoverKey: cover && old.coverArtKey !== cover.key ? old.coverArtKey : null,
        };
      });
    },

    /**
     * Sets the show's feed_guid if it has none and returns the one it has now: whoever sets it
     * first wins, and it never changes after (a directory keys the show by it).
     */
    async fixFeedGuid(id: string, guid: string): Promise<string | null> {
      await db
        .update(podcasts)
        .set({ feedGuid: guid })
        .where(and(eq(podcasts.id, id), isNull(podcasts.feedGuid)));
      const [row] = await db
        .select({ feedGuid: podcasts.feedGuid })
        .from(podcasts)
        .where(eq(podcasts.id, id));
      return row?.feedGuid ?? null;
    },
  };
}
