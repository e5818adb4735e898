import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, songLyrics, songRenditions, songs } from '../../db/schema/index.ts';
import { createMediaRows } from '../../media/media-rows.repository.ts';

export type SongRow = typeof songs.$inferSelect;
export type RenditionRow = typeof songRenditions.$inferSelect;
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
  | 'mediaStatus'
>;
/** A song's lyrics as stored: the text as typed, and whether it is LRC. */
export type StoredLyrics = { text: string; synced: boolean };
/** A transaction a caller may add its own writes to (the job queue's enqueue takes it). */
export type Tx = Db;

type SongsTables = ReturnType<typeof createSongsRepository>;
/** The songs repository as the service uses it: its reads and its writes. */
export type SongsRepository = SongsTables['reads'] & SongsTables['writes'];

/**
 * Songs' rows: what reads them, and apart, every statement that changes a song, so that the
 * module can announce each write to what keeps answers about songs (search's answer cache,
 * ADR 0011), whatever write is added here later.
 */
export function createSongsRepository(db: Db) {
  const reads = {
    async findById(id: string): Promise<SongRow | null> {
      const [row] = await db.select().from(songs).where(eq(songs.id, id)).limit(1);
      return row ?? null;
    },

    /** The songs among `ids` that exist, any order. */
    async findByIds(ids: string[]): Promise<SongRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(songs).where(inArray(songs.id, ids));
    },

    async displayNameOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ name: profiles.displayName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row?.name ?? null;
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

    /** The most played own songs' titles and artists' names (the companion's vocabulary). */
    async mostPlayedNames(limit: number): Promise<{ title: string; artist: string | null }[]> {
      return db
        .select({ title: songs.title, artist: songs.artist })
        .from(songs)
        .where(sql`${songs.source} is null`)
        .orderBy(desc(songs.playCount), desc(songs.createdAt), desc(songs.id))
        .limit(limit);
    },

    /** An own upload (`source` null) by id, or null: all a Subsonic client may reach. */
    async findOwn(id: string): Promise<SongRow | null> {
      const [row] = await db
        .select()
        .from(songs)
        .where(and(eq(songs.id, id), isNull(songs.source)))
        .limit(1);
      return row ?? null;
    },

    /**
     * An own upload's audio in one round trip (Subsonic streams ask on every request): its
     * title, artist and original, and one row per rendition by bitrate ascending (a row of
     * nulls when it has none). Empty for no such song.
     */
    async ownAudio(id: string) {
      return db
        .select({
          title: songs.title,
          artist: songs.artist,
          fileUrl: songs.fileUrl,
          format: songRenditions.format,
          codec: songRenditions.codec,
          bitrateKbps: songRenditions.bitrateKbps,
          renditionUrl: songRenditions.fileUrl,
        })
        .from(songs)
        .leftJoin(songRenditions, eq(songRenditions.songId, songs.id))
        .where(and(eq(songs.id, id), isNull(songs.source)))
        .orderBy(asc(songRenditions.bitrateKbps));
    },

    /**
     * The cover URL of the artist's newest own song that has one, among the songs uploaded in
     * `year` (UTC) if given (songs_artist_created_idx).
     */
    async newestCoverOf(artistId: string, year?: number): Promise<string | null> {
      const where = [
        eq(songs.artistId, artistId),
        isNull(songs.source),
        isNotNull(songs.coverArtUrl),
      ];
      if (year !== undefined)
        where.push(
          gte(songs.createdAt, new Date(Date.UTC(year, 0, 1))),
          lt(songs.createdAt, new Date(Date.UTC(year + 1, 0, 1))),
        );
      const [row] = await db
        .select({ url: songs.coverArtUrl })
        .from(songs)
        .where(and(...where))
        .orderBy(desc(songs.createdAt), desc(songs.id))
        .limit(1);
      return row?.url ?? null;
    },

    async lyricsOf(songId: string): Promise<StoredLyrics | null> {
      const [row] = await db
        .select({ text: songLyrics.text, synced: songLyrics.synced })
        .from(songLyrics)
        .where(eq(songLyrics.songId, songId))
        .limit(1);
      return row ?? null;
    },

    /** Which of `ids` have lyrics. */
    async withLyrics(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: songLyrics.songId })
        .from(songLyrics)
        .where(inArray(songLyrics.songId, ids));
      return new Set(rows.map((r) => r.id));
    },

    /**
     * The lyrics of the newest own song with lyrics whose artist and title are these, each
     * ignoring case (Subsonic's getLyrics); either may be left out.
     */
    async ownLyricsNamed(name: {
      artist?: string;
      title?: string;
    }): Promise<(StoredLyrics & { artist: string | null; title: string }) | null> {
      const where = [isNull(songs.source)];
      if (name.artist) where.push(sql`lower(${songs.artist}) = ${name.artist.toLowerCase()}`);
      if (name.title) where.push(sql`lower(${songs.title}) = ${name.title.toLowerCase()}`);
      const [row] = await db
        .select({
          text: songLyrics.text,
          synced: songLyrics.synced,
          artist: songs.artist,
          title: songs.title,
        })
        .from(songLyrics)
        .innerJoin(songs, eq(songs.id, songLyrics.songId))
        .where(and(...where))
        .orderBy(desc(songs.createdAt), desc(songs.id))
        .limit(1);
      return row ?? null;
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
  };

  const writes = {
    /**
     * Inserts the song and runs `withRow` in the same transaction (its media job, and its
     * `new_release` notice to every follower: one INSERT … SELECT however many there are).
     */
    async insertWith(
      song: NewSong,
      withRow: (row: SongRow, tx: Tx) => Promise<unknown>,
      lyrics: StoredLyrics | null = null,
    ): Promise<SongRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(songs).values(song).returning();
        if (!row) throw new Error('song insert returned no row');
        if (lyrics) await tx.insert(songLyrics).values({ songId: row.id, ...lyrics });
        await withRow(row, tx);
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

    /** Sets (or with null removes) a song's lyrics. */
    async setLyrics(songId: string, lyrics: StoredLyrics | null): Promise<void> {
      if (!lyrics) {
        await db.delete(songLyrics).where(eq(songLyrics.songId, songId));
        return;
      }
      await db
        .insert(songLyrics)
        .values({ songId, ...lyrics })
        .onConflictDoUpdate({
          target: songLyrics.songId,
          set: { text: lyrics.text, synced: lyrics.synced, updatedAt: sql`now()` },
        });
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

    /** Deletes the song (its renditions' rows go with it); the row and every file key it had. */
    async delete(id: string): Promise<{ row: SongRow; renditionKeys: string[] } | null> {
      return db.transaction(async (tx) => {
        // Under the row's lock, as the media job stores its outcome: the renditions read here
        // are all there will be (a job finishing later finds no song and deletes its files).
        await tx.select({ id: songs.id }).from(songs).where(eq(songs.id, id)).for('update');
        const renditions = await tx
          .select({ key: songRenditions.fileKey })
          .from(songRenditions)
          .where(eq(songRenditions.songId, id));
        const [row] = await tx.delete(songs).where(eq(songs.id, id)).returning();
        return row ? { row, renditionKeys: renditions.map((r) => r.key) } : null;
      });
    },
  };
  return { reads, writes };
}

/** A song's media rows (docs/decisions/0014): its renditions, loudness, waveform and status. */
export const createSongMediaRepository = (db: Db) =>
  createMediaRows(db, {
    table: songs,
    original: songs.fileKey,
    renditions: songRenditions,
    owner: 'songId',
  });
export type SongMediaRepository = ReturnType<typeof createSongMediaRepository>;
