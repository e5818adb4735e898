import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { createMediaRows } from '../../media/media-rows.repository.ts';
import { queryRows } from '../../db/sql-results.ts';
import { adImpressions, adRenditions, adShowings, ads } from '../../db/schema/index.ts';

export type AdRow = typeof ads.$inferSelect;
/** An ad with its impressions: all time, and since a given moment (the last 30 days). */
export type AdWithCounts = { ad: AdRow; impressions: number; impressionsSince: number };
export type NewAd = typeof ads.$inferInsert;
export type AdRenditionRow = typeof adRenditions.$inferSelect;
export type ShowingRow = typeof adShowings.$inferSelect;

type ShowingDbRow = {
  id: string;
  ad_id: string;
  user_id: string;
  song_id: string | null;
  podcast_episode_id: string | null;
  duration_ms: number;
  created_at: Date | string;
};

const showingOf = (r: ShowingDbRow): ShowingRow => ({
  id: r.id,
  adId: r.ad_id,
  userId: r.user_id,
  songId: r.song_id,
  podcastEpisodeId: r.podcast_episode_id,
  durationMs: Number(r.duration_ms),
  createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
});

/** The text and duration an edit changes; a key left out is kept. */
export type AdPatch = Partial<Pick<NewAd, 'title' | 'description' | 'targetUrl' | 'durationMs'>>;

/** A stored file as the row keeps it: `/media/<bucket>/<key>` and `<bucket>/<key>`. */
export type StoredFile = { url: string; key: string };

export type AdFileChange = {
  /** A new image, or null to remove it; left out: unchanged. */
  image?: StoredFile | null;
  /** New audio (its measured length), or null to remove it; left out: unchanged. */
  audio?: (StoredFile & { durationMs: number }) | null;
};

/**
 * How many of the latest impressions the rotation reads (through ad_impressions_created_idx):
 * an active ad absent from them counts as never shown. Bounded, so a Home visit costs the
 * same with a billion impressions as with ten.
 */
export const ROTATION_WINDOW = 1000;

export type AdsRepository = ReturnType<typeof createAdsRepository>;

/** The ad inventory, its renditions and impressions (docs/decisions/0023). */
export function createAdsRepository(db: Db) {
  return {
    /**
     * Every ad, newest first (the admin inventory: a few rows), each with its impressions in
     * all and those created at or after `since`. Counted per ad in the same statement, a
     * lateral aggregate over ad_impressions_ad_created_idx: a range read of the index per ad.
     */
    async allWithCounts(since: Date): Promise<AdWithCounts[]> {
      const counts = db
        .select({
          total: sql<number>`count(*)`.mapWith(Number).as('impressions'),
          since: sql<number>`count(*) filter (where ${adImpressions.createdAt} >= ${since})`
            .mapWith(Number)
            .as('impressions_since'),
        })
        .from(adImpressions)
        .where(eq(adImpressions.adId, ads.id))
        .as('counts');
      const rows = await db
        .select({ ad: ads, impressions: counts.total, impressionsSince: counts.since })
        .from(ads)
        .crossJoinLateral(counts)
        .orderBy(desc(ads.createdAt), desc(ads.id));
      // count(*) is a bigint: a string from node-postgres, so Number either way.
      return rows.map((r) => ({
        ad: r.ad,
        impressions: Number(r.impressions),
        impressionsSince: Number(r.impressionsSince),
      }));
    },

    async findById(id: string): Promise<AdRow | null> {
      const [row] = await db.select().from(ads).where(eq(ads.id, id)).limit(1);
      return row ?? null;
    },

    /** Inserts an ad; `withRow` runs in the same transaction (its media job). */
    async insert(ad: NewAd, withRow: (row: AdRow, tx: Db) => Promise<unknown>): Promise<AdRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(ads).values(ad).returning();
        if (!row) throw new Error('ad insert returned no row');
        await withRow(row, tx);
        return row;
      });
    },

    /**
     * Edits an ad under its row lock. New or removed audio drops the renditions of the old
     * (their files are the caller's to delete, with the replaced originals: `discarded`) and
     * sets the status: 'processing' for new audio, 'ready' without. A duration given counts
     * only while the ad has no audio; audio brings its own. `withRow` runs in the transaction
     * (the new audio's media job). Null when the ad is gone.
     */
    async update(
      id: string,
      patch: AdPatch,
      files: AdFileChange,
      withRow: (row: AdRow, tx: Db) => Promise<unknown>,
    ): Promise<{ row: AdRow; discarded: string[] } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ imageKey: ads.imageKey, audioKey: ads.audioKey })
          .from(ads)
          .where(eq(ads.id, id))
          .for('update')
          .limit(1);
        if (!old) return null;
        const discarded: string[] = [];
        const set: Partial<NewAd> = { ...patch };
        if (files.image !== undefined) {
          if (old.imageKey && old.imageKey !== files.image?.key) discarded.push(old.imageKey);
          set.imageUrl = files.image?.url ?? null;
          set.imageKey = files.image?.key ?? null;
        }
        const audioAfter = files.audio === undefined ? old.audioKey : (files.audio?.key ?? null);
        if (audioAfter !== null && files.audio === undefined) delete set.durationMs;
        if (files.audio !== undefined) {
          const renditions = await tx
            .delete(adRenditions)
            .where(eq(adRenditions.adId, id))
            .returning({ fileKey: adRenditions.fileKey });
          discarded.push(...renditions.map((r) => r.fileKey));
          if (old.audioKey && old.audioKey !== files.audio?.key) discarded.push(old.audioKey);
          Object.assign(set, {
            audioUrl: files.audio?.url ?? null,
            audioKey: files.audio?.key ?? null,
            mediaStatus: files.audio ? 'processing' : 'ready',
            loudnessLufs: null,
            truePeakDbtp: null,
          } satisfies Partial<NewAd>);
          if (files.audio) set.durationMs = files.audio.durationMs;
        }
        const [row] = await tx
          .update(ads)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(ads.id, id))
          .returning();
        await withRow(row!, tx);
        return { row: row!, discarded };
      });
    },

    async setActive(id: string, active: boolean): Promise<AdRow | null> {
      const [row] = await db
        .update(ads)
        .set({ active, updatedAt: sql`now()` })
        .where(eq(ads.id, id))
        .returning();
      return row ?? null;
    },

    /**
     * The active ad whose latest impression is oldest: never shown first (within the last
     * ROTATION_WINDOW impressions), then least recently shown; ties by age, then id. One
     * statement: the window through the created_at index, the active ads through theirs.
     */
    async nextActive(): Promise<AdRow | null> {
      const recent = db
        .select({ adId: adImpressions.adId, createdAt: adImpressions.createdAt })
        .from(adImpressions)
        .orderBy(desc(adImpressions.createdAt))
        .limit(ROTATION_WINDOW)
        .as('recent');
      const lastShown = db
        .select({
          adId: recent.adId,
          lastAt: sql<Date>`max(${recent.createdAt})`.as('last_at'),
        })
        .from(recent)
        .where(isNotNull(recent.adId))
        .groupBy(recent.adId)
        .as('last_shown');
      const [row] = await db
        .select({ ad: ads })
        .from(ads)
        .leftJoin(lastShown, eq(lastShown.adId, ads.id))
        .where(eq(ads.active, true))
        .orderBy(sql`${lastShown.lastAt} asc nulls first`, asc(ads.createdAt), asc(ads.id))
        .limit(1);
      return row?.ad ?? null;
    },

    /** Deletes up to `limit` showings made before `before`, oldest first; answers how many. */
    async pruneShowings(before: Date, limit: number): Promise<number> {
      const deleted = await queryRows<{ id: string }>(
        db,
        sql`delete from ad_showings where id in (
              select id from ad_showings where created_at < ${before.toISOString()}::timestamptz
              order by created_at limit ${limit})
            returning id`,
      );
      return deleted.length;
    },

    /**
     * Writes a showing of `ad` to `userId` at `at`, unless the listener's latest showing is
     * after `notAfter` (the frequency cap): then nothing is written and its time is answered.
     * One at a time per listener (a transaction-scoped advisory lock), so twins cannot both
     * pass the cap. The showing names what the listener is playing by their own records: the
     * latest stream record while it is current (started no longer ago than its item's
     * duration and `graceMs`; one probe of stream_analytics_user_played_idx), or the episode
     * whose progress they reported within `graceMs` (episodes keep episode_progress, not
     * stream records), whichever is more recent.
     */
    async issueShowing(showing: {
      adId: string;
      userId: string;
      durationMs: number;
      at: Date;
      notAfter: Date | null;
      graceMs: number;
    }): Promise<{ issued: ShowingRow } | { lastAt: Date }> {
      return db.transaction(async (tx) => {
        const { userId, at } = showing;
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`canto:ad-showing:${userId}`}, 0))`,
        );
        if (showing.notAfter) {
          const [last] = await tx
            .select({ at: adShowings.createdAt })
            .from(adShowings)
            .where(eq(adShowings.userId, userId))
            .orderBy(desc(adShowings.createdAt))
            .limit(1);
          if (last && last.at > showing.notAfter) return { lastAt: last.at };
        }
        const [row] = await queryRows<ShowingDbRow>(
          tx,
          sql`
          with latest as (
            select song_id, podcast_episode_id, played_at
            from stream_analytics
            where user_id = ${userId} and played_at <= ${at.toISOString()}::timestamptz
            order by played_at desc
            limit 1
          ), current_record as (
            select latest.song_id, latest.podcast_episode_id, latest.played_at as at
            from latest
            left join songs s on s.id = latest.song_id
            left join podcast_episodes e on e.id = latest.podcast_episode_id
            where latest.played_at >= ${at.toISOString()}::timestamptz
              - (coalesce(s.duration_ms, e.duration_ms, 0) + ${showing.graceMs}::int)
                * interval '1 millisecond'
          ), current_episode as (
            select null::uuid as song_id, episode_id as podcast_episode_id, updated_at as at
            from episode_progress
            where user_id = ${userId}
              and updated_at <= ${at.toISOString()}::timestamptz
              and updated_at >= ${at.toISOString()}::timestamptz
                - ${showing.graceMs}::int * interval '1 millisecond'
            order by updated_at desc
            limit 1
          ), current_play as (
            select song_id, podcast_episode_id
            from (select * from current_record union all select * from current_episode) as c
            order by at desc
            limit 1
          )
          insert into ad_showings (ad_id, user_id, song_id, podcast_episode_id, duration_ms, created_at)
          select ${showing.adId}, ${userId}, current_play.song_id, current_play.podcast_episode_id,
                 ${showing.durationMs}::int, ${at.toISOString()}::timestamptz
          from (select 1) as one left join current_play on true
          returning id, ad_id, user_id, song_id, podcast_episode_id, duration_ms, created_at`,
        );
        return { issued: showingOf(row!) };
      });
    },

    /**
     * The impression of `showingId`, shown to `userId`, at `at`: under the showing's row lock,
     * so a replay and its concurrent twins wait and then find the impression written.
     * `refuse` sees the showing's facts (the ad active now?) and may refuse; then nothing is
     * written. The impression names what the showing names.
     */
    async recordImpression(
      showingId: string,
      userId: string,
      at: Date,
      refuse: (showing: ShowingRow & { adActive: boolean }) => Error | null,
    ): Promise<{ outcome: 'not-found' } | { outcome: 'recorded' | 'replay'; showing: ShowingRow }> {
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ showing: adShowings, adActive: ads.active })
          .from(adShowings)
          .innerJoin(ads, eq(ads.id, adShowings.adId))
          .where(and(eq(adShowings.id, showingId), eq(adShowings.userId, userId)))
          .for('update', { of: adShowings })
          .limit(1);
        if (!found) return { outcome: 'not-found' };
        const showing = found.showing;
        const [done] = await tx
          .select({ id: adImpressions.id })
          .from(adImpressions)
          .where(eq(adImpressions.showingId, showingId))
          .limit(1);
        if (done) return { outcome: 'replay', showing };
        const refusal = refuse({ ...showing, adActive: found.adActive });
        if (refusal) throw refusal;
        const rows = await tx
          .insert(adImpressions)
          .values({
            adId: showing.adId,
            userId,
            songId: showing.songId,
            podcastEpisodeId: showing.podcastEpisodeId,
            showingId,
            createdAt: at,
          })
          .onConflictDoNothing({ target: adImpressions.showingId })
          .returning({ id: adImpressions.id });
        return { outcome: rows.length > 0 ? 'recorded' : 'replay', showing };
      });
    },
  };
}

/**
 * An ad's media rows (docs/decisions/0023). Unlike a song's or an episode's, an ad's audio
 * can be replaced, so the job's item is one stored audio file (its key, `music/<key>`), not
 * the ad: a job whose file the ad no longer plays finds nothing to do, or has its outputs
 * discarded at the end. Ads keep no waveform (nothing draws one): the job's file goes.
 */
export const createAdMediaRepository = (db: Db) =>
  createMediaRows(db, {
    table: ads,
    item: ads.audioKey,
    original: ads.audioKey,
    renditions: adRenditions,
    owner: 'adId',
  });
export type AdMediaRepository = ReturnType<typeof createAdMediaRepository>;
