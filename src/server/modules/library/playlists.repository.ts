import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { playlists, playlistTracks, profiles } from '../../db/schema/index.ts';
import { isSqlState, queryRows } from '../../db/sql-results.ts';

export type PlaylistsRepository = ReturnType<typeof createPlaylistsRepository>;

/** The order tracks play in. Positions are unique per playlist; the rest only makes it total. */
const TRACK_ORDER = sql`position, added_at, song_id`;

/** A playlist with what its card shows: how many tracks, and a cover. */
const summaryColumns = {
  id: playlists.id,
  userId: playlists.userId,
  title: playlists.title,
  description: playlists.description,
  isPublic: playlists.isPublic,
  // The playlist's own cover, else its first track's (covers are public, never signed).
  // `playlists.x` spelled out: Drizzle renders a column as a bare name here, which the
  // subquery would resolve against its own tables (songs.id).
  coverArtUrl: sql<string | null>`coalesce(playlists.cover_art_url, (
    select s.cover_art_url from playlist_tracks t join songs s on s.id = t.song_id
    where t.playlist_id = playlists.id order by t.position, t.added_at, t.song_id limit 1))`,
  trackCount: sql<number>`(select count(*)::int from playlist_tracks t where t.playlist_id = playlists.id)`,
  createdAt: playlists.createdAt,
  updatedAt: playlists.updatedAt,
};

export type PlaylistRow = {
  id: string;
  userId: string;
  title: string;
  description: string | null;
  isPublic: boolean;
  coverArtUrl: string | null;
  trackCount: number;
  createdAt: Date;
  updatedAt: Date | null;
};

/**
 * A playlist as the Subsonic listing shows it: its summary, its tracks' total duration, its
 * owner's sign-in name (a Subsonic username is the account's email) and its first track.
 */
export type PlaylistListingRow = PlaylistRow & {
  durationMs: number;
  ownerEmail: string;
  firstSongId: string | null;
};

export type EditTracksResult =
  | { outcome: 'edited' }
  | { outcome: 'gone' | 'bad_index' | 'no_song' | 'full' }
  | { outcome: 'duplicate'; title: string };

export type AddTrackResult =
  | { outcome: 'added'; position: number }
  | { outcome: 'gone' | 'no_song' | 'full' }
  | { outcome: 'duplicate'; title: string };

export type MoveTrackResult =
  { outcome: 'moved'; songIds: string[] } | { outcome: 'gone' | 'absent' };

/** playlists and playlist_tracks rows. */
export function createPlaylistsRepository(db: Db) {
  const summaries = () => db.select(summaryColumns).from(playlists);
  // Reads songs and users for set work only (ADR 0024): durations and the owner's email.
  const listings = () =>
    db
      .select({
        ...summaryColumns,
        durationMs:
          sql<number>`(select coalesce(sum(s.duration_ms), 0)::bigint from playlist_tracks t
          join songs s on s.id = t.song_id where t.playlist_id = playlists.id)`.mapWith(Number),
        ownerEmail: sql<string>`(select u.email from users u where u.id = playlists.user_id)`,
        firstSongId: sql<string | null>`(select t.song_id from playlist_tracks t
          where t.playlist_id = playlists.id order by t.position, t.added_at, t.song_id limit 1)`,
      })
      .from(playlists);

  return {
    /** Newest first (playlists_user_created_idx); ties by id, so the order is stable. */
    listOwn(userId: string): Promise<PlaylistRow[]> {
      return summaries()
        .where(eq(playlists.userId, userId))
        .orderBy(desc(playlists.createdAt), desc(playlists.id));
    },

    /**
     * The playlists `viewerId` may see, newest first: their own and everyone's public ones;
     * with `ownerId`, only that owner's among them.
     */
    listVisible(viewerId: string, ownerId?: string): Promise<PlaylistListingRow[]> {
      const visible = or(eq(playlists.userId, viewerId), eq(playlists.isPublic, true));
      return listings()
        .where(ownerId ? and(eq(playlists.userId, ownerId), visible) : visible)
        .orderBy(desc(playlists.createdAt), desc(playlists.id));
    },

    async findListing(id: string): Promise<PlaylistListingRow | null> {
      const [row] = await listings().where(eq(playlists.id, id));
      return row ?? null;
    },

    /** Which of `ids` are stored songs (not external catalogue rows): a read of songs. */
    async storedSongIds(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const found = await queryRows<{ id: string }>(
        db,
        sql`select id from songs where id = any(${`{${ids.join(',')}}`}::uuid[]) and source is null`,
      );
      return new Set(found.map((r) => r.id));
    },

    async find(id: string): Promise<PlaylistRow | null> {
      const [row] = await summaries().where(eq(playlists.id, id));
      return row ?? null;
    },

    async create(input: {
      userId: string;
      title: string;
      description: string | null;
      isPublic: boolean;
    }): Promise<string> {
      const [row] = await db.insert(playlists).values(input).returning({ id: playlists.id });
      return row!.id;
    },

    /** Only the owner's row changes; false when there is none. */
    async update(
      id: string,
      userId: string,
      patch: { title?: string; description?: string | null; isPublic?: boolean },
    ): Promise<boolean> {
      const rows = await db
        .update(playlists)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(and(eq(playlists.id, id), eq(playlists.userId, userId)))
        .returning({ id: playlists.id });
      return rows.length > 0;
    },

    /** Its tracks go with it (foreign key, on delete cascade). */
    async remove(id: string, userId: string): Promise<void> {
      await db.delete(playlists).where(and(eq(playlists.id, id), eq(playlists.userId, userId)));
    },

    async ownerDisplayName(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: profiles.displayName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row?.name ?? null;
    },

    tracks(playlistId: string) {
      return db
        .select({
          songId: playlistTracks.songId,
          position: playlistTracks.position,
          addedAt: playlistTracks.addedAt,
        })
        .from(playlistTracks)
        .where(eq(playlistTracks.playlistId, playlistId))
        .orderBy(playlistTracks.position, playlistTracks.addedAt, playlistTracks.songId);
    },

    /**
     * Appends a song at the highest position + 1 (0 when empty), in one transaction that
     * first locks the playlist row: concurrent adds to one playlist queue there, and each
     * reads the highest position as the one before it committed it, so positions stay
     * unique. The primary key (playlist_id, song_id) decides duplicates: a second add of a
     * song, even a concurrent one, fails with 23505 and the transaction writes nothing.
     * Only stored uploads can be added: a row with `source` set is an external track.
     */
    async addTrack(
      playlistId: string,
      userId: string,
      songId: string,
      maxTracks: number,
    ): Promise<AddTrackResult> {
      let title = '';
      try {
        return await db.transaction(async (tx): Promise<AddTrackResult> => {
          const [playlist] = await tx
            .select({ title: playlists.title })
            .from(playlists)
            .where(and(eq(playlists.id, playlistId), eq(playlists.userId, userId)))
            .for('update');
          if (!playlist) return { outcome: 'gone' };
          title = playlist.title;
          const [song] = await queryRows<{ source: string | null }>(
            tx,
            sql`select source from songs where id = ${songId}`,
          );
          if (!song || song.source !== null) return { outcome: 'no_song' };
          // Read after the lock: the previous add to this playlist has committed by now.
          const [tracks] = await queryRows<{ count: number; next: number; present: boolean }>(
            tx,
            sql`select count(*)::int as count, coalesce(max(position) + 1, 0)::int as next,
                  bool_or(song_id = ${songId}) is true as present
                from playlist_tracks where playlist_id = ${playlistId}`,
          );
          if (tracks!.count >= maxTracks)
            return tracks!.present ? { outcome: 'duplicate', title } : { outcome: 'full' };
          await tx.insert(playlistTracks).values({ playlistId, songId, position: tracks!.next });
          await tx
            .update(playlists)
            .set({ updatedAt: sql`now()` })
            .where(eq(playlists.id, playlistId));
          return { outcome: 'added', position: tracks!.next };
        });
      } catch (error) {
        if (isSqlState(error, '23505')) return { outcome: 'duplicate', title };
        // The song was deleted between the read and the insert.
        if (isSqlState(error, '23503')) return { outcome: 'no_song' };
        throw error;
      }
    },

    /** Idempotent; a removal leaves a gap in the positions (the next add goes after the end). */
    async removeTrack(playlistId: string, songId: string): Promise<void> {
      await db.execute(sql`
        with removed as (
          delete from playlist_tracks where playlist_id = ${playlistId} and song_id = ${songId}
          returning 1
        )
        update playlists set updated_at = now()
        where id = ${playlistId} and exists (select 1 from removed)`);
    },

    /**
     * Moves a track to `index` of the current order (clamped to the end) and rewrites every
     * position densely 0..n-1 in one statement, under the same playlist row lock as adds, so
     * an add never reads a highest position that a reorder is about to change.
     */
    async moveTrack(
      playlistId: string,
      userId: string,
      songId: string,
      index: number,
    ): Promise<MoveTrackResult> {
      return db.transaction(async (tx): Promise<MoveTrackResult> => {
        const [playlist] = await tx
          .select({ id: playlists.id })
          .from(playlists)
          .where(and(eq(playlists.id, playlistId), eq(playlists.userId, userId)))
          .for('update');
        if (!playlist) return { outcome: 'gone' };
        const moved = await queryRows<{ song_id: string; position: number }>(
          tx,
          sql`
          with others as (
            select song_id, row_number() over (order by ${TRACK_ORDER}) - 1 as r
            from playlist_tracks
            where playlist_id = ${playlistId} and song_id <> ${songId}
          ),
          -- No row when the track is not in the playlist: then nothing is placed or updated.
          target as (
            select least(${index}::bigint, (select count(*) from others)) as k
            where exists (
              select 1 from playlist_tracks where playlist_id = ${playlistId} and song_id = ${songId})
          ),
          placed as (
            select o.song_id, case when o.r >= t.k then o.r + 1 else o.r end as pos
            from others o, target t
            union all
            select ${songId}::uuid, t.k from target t
          )
          update playlist_tracks p set position = placed.pos
          from placed
          where p.playlist_id = ${playlistId} and p.song_id = placed.song_id
          returning p.song_id, p.position`,
        );
        if (moved.length === 0) return { outcome: 'absent' };
        await tx
          .update(playlists)
          .set({ updatedAt: sql`now()` })
          .where(eq(playlists.id, playlistId));
        const order = moved
          .sort((a, b) => Number(a.position) - Number(b.position))
          .map((r) => r.song_id);
        return { outcome: 'moved', songIds: order };
      });
    },

    /**
     * A playlist made whole with its tracks, in `tx` (the caller's transaction) or one of its
     * own: the AI mix (docs/decisions/0032). Only stored songs (`source` null) are taken, in
     * the order given, each once; a song deleted meanwhile is left out.
     */
    async createWithTracks(
      input: { userId: string; title: string; description: string | null; isPublic: boolean },
      songIds: string[],
      tx?: Db,
    ): Promise<string> {
      const run = async (t: Db) => {
        const [row] = await t.insert(playlists).values(input).returning({ id: playlists.id });
        await insertTracks(t, row!.id, songIds);
        return row!.id;
      };
      return tx ? run(tx) : db.transaction(run);
    },

    /**
     * The owner's playlist retitled with exactly `songIds` as its tracks, under its row lock;
     * false when the playlist is gone (or not the owner's) and nothing changed.
     */
    async replaceTracks(
      playlistId: string,
      userId: string,
      change: { title: string; songIds: string[] },
      tx?: Db,
    ): Promise<boolean> {
      const run = async (t: Db) => {
        const [row] = await t
          .select({ id: playlists.id })
          .from(playlists)
          .where(and(eq(playlists.id, playlistId), eq(playlists.userId, userId)))
          .for('update');
        if (!row) return false;
        await t.delete(playlistTracks).where(eq(playlistTracks.playlistId, playlistId));
        await insertTracks(t, playlistId, change.songIds);
        await t
          .update(playlists)
          .set({ title: change.title, updatedAt: sql`now()` })
          .where(eq(playlists.id, playlistId));
        return true;
      };
      return tx ? run(tx) : db.transaction(run);
    },

    /**
     * One edit of the owner's playlist, all or nothing, under its row lock: the tracks at
     * `removeIndexes` (of the current play order) go, `addSongIds` are appended after the
     * last one, and `patch` is applied. Nothing is written when an index is out of range, a
     * song is not a stored song, a song would be there twice, or the playlist would hold more
     * than `maxTracks`. A removal leaves a gap in the positions, as removeTrack does.
     */
    async editTracks(
      playlistId: string,
      userId: string,
      change: {
        patch: { title?: string; description?: string | null; isPublic?: boolean };
        removeIndexes: number[];
        addSongIds: string[];
      },
      maxTracks: number,
    ): Promise<EditTracksResult> {
      const edit = db.transaction(async (tx): Promise<EditTracksResult> => {
        const [playlist] = await tx
          .select({ title: playlists.title })
          .from(playlists)
          .where(and(eq(playlists.id, playlistId), eq(playlists.userId, userId)))
          .for('update');
        if (!playlist) return { outcome: 'gone' };
        const current = await tx
          .select({ songId: playlistTracks.songId, position: playlistTracks.position })
          .from(playlistTracks)
          .where(eq(playlistTracks.playlistId, playlistId))
          .orderBy(playlistTracks.position, playlistTracks.addedAt, playlistTracks.songId);
        if (change.removeIndexes.some((i) => i < 0 || i >= current.length))
          return { outcome: 'bad_index' };
        const removed = new Set(change.removeIndexes.map((i) => current[i]!.songId));
        const kept = current.filter((t) => !removed.has(t.songId));
        const present = new Set(kept.map((t) => t.songId));
        for (const id of change.addSongIds) {
          if (present.has(id)) return { outcome: 'duplicate', title: playlist.title };
          present.add(id);
        }
        if (present.size > maxTracks) return { outcome: 'full' };
        if (change.addSongIds.length > 0) {
          const stored = await queryRows<{ n: number }>(
            tx,
            sql`select count(*)::int as n from songs
                where id = any(${`{${change.addSongIds.join(',')}}`}::uuid[]) and source is null`,
          );
          if (Number(stored[0]!.n) !== change.addSongIds.length) return { outcome: 'no_song' };
        }
        for (const songId of removed)
          await tx
            .delete(playlistTracks)
            .where(
              and(eq(playlistTracks.playlistId, playlistId), eq(playlistTracks.songId, songId)),
            );
        const next = kept.reduce((max, t) => Math.max(max, t.position + 1), 0);
        if (change.addSongIds.length > 0)
          await tx
            .insert(playlistTracks)
            .values(
              change.addSongIds.map((songId, i) => ({ playlistId, songId, position: next + i })),
            );
        await tx
          .update(playlists)
          .set({ ...change.patch, updatedAt: sql`now()` })
          .where(eq(playlists.id, playlistId));
        return { outcome: 'edited' };
      });
      try {
        return await edit;
      } catch (error) {
        // A song was deleted between the check and the insert: the transaction wrote nothing.
        if (isSqlState(error, '23503')) return { outcome: 'no_song' };
        throw error;
      }
    },

    /** The owner's playlist's song ids in play order; null when it is not theirs or gone. */
    async ownTrackIds(playlistId: string, userId: string): Promise<string[] | null> {
      const found = await queryRows<{ owned: boolean; song_id: string | null }>(
        db,
        sql`select true as owned, t.song_id from playlists p
            left join playlist_tracks t on t.playlist_id = p.id
            where p.id = ${playlistId} and p.user_id = ${userId}
            order by t.position, t.added_at, t.song_id`,
      );
      if (found.length === 0) return null;
      return found.flatMap((r) => (r.song_id ? [r.song_id] : []));
    },
  };
}

/** Tracks at positions 0..n-1 in the order given, stored songs only, each once. */
async function insertTracks(tx: Db, playlistId: string, songIds: string[]) {
  if (songIds.length === 0) return;
  await tx.execute(sql`
    insert into playlist_tracks (playlist_id, song_id, position)
    select ${playlistId}::uuid, g.id, (row_number() over (order by g.ord) - 1)::int
    from (
      select distinct on (x.id) x.id, x.ord
      from unnest(${`{${songIds.join(',')}}`}::uuid[]) with ordinality as x(id, ord)
      order by x.id, x.ord
    ) g
    join songs s on s.id = g.id and s.source is null`);
}
