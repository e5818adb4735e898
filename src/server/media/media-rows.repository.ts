import { and, asc, eq, getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import type { MediaJobPort, MediaOutcome, MediaSource } from './media-job.ts';

/*
 * The media job's rows (docs/decisions/0014, 0018, 0023): one helper for every kind of
 * uploaded audio, configured by the module that owns the table (songs, podcast episodes,
 * ads), so each module still writes only its own rows. Every write is keyed by row and
 * format, so a job that runs twice writes the same rows.
 */

/** The columns every row the media job processes has (songs, podcast_episodes, ads). */
type MediaRowTable = PgTable & {
  id: AnyPgColumn;
  durationMs: AnyPgColumn;
  mediaStatus: AnyPgColumn;
  loudnessLufs: AnyPgColumn;
  truePeakDbtp: AnyPgColumn;
  waveformUrl?: AnyPgColumn;
  waveformKey?: AnyPgColumn;
};

/** A renditions table: media.schema.ts's renditionColumns() after its row's id. */
type RenditionTable = PgTable & {
  format: AnyPgColumn;
  fileKey: AnyPgColumn;
  bitrateKbps: AnyPgColumn;
};

export type MediaRowsConfig<T extends MediaRowTable, R extends RenditionTable> = {
  table: T;
  /** The job's item, when it is not the row's id: an ad's is its stored audio (`music/<key>`). */
  item?: AnyPgColumn;
  /** The kept original, `<bucket>/<key>`. */
  original: AnyPgColumn;
  renditions: R;
  /** The renditions' column naming their row, as the table declares it (`songId`). */
  owner: keyof R & string;
};

export type MediaRows<T extends MediaRowTable, R extends RenditionTable> = MediaJobPort & {
  /** The renditions of these rows, each row's by bitrate ascending. */
  renditionsOf(ids: string[]): Promise<Array<R['$inferSelect']>>;
  /**
   * A failed row back to 'processing', its new job enqueued by `enqueue` in the same
   * transaction. Null when the row was not 'failed' (nothing changes then).
   */
  reprocess(item: string, enqueue: (tx: Db) => Promise<unknown>): Promise<T['$inferSelect'] | null>;
};

export function createMediaRows<T extends MediaRowTable, R extends RenditionTable>(
  db: Db,
  config: MediaRowsConfig<T, R>,
): MediaRows<T, R> {
  const { table, original, renditions } = config;
  const item = config.item ?? table.id;
  const owner = renditions[config.owner] as AnyPgColumn;
  // A row without a waveform (an ad: nothing draws one) discards the job's.
  const waveformKey = table.waveformKey ?? null;
  const set = (values: Record<string, unknown>) => values as PgUpdateSetSource<T>;

  // Every page of rows (search, home, lists) asks for its renditions: built once, and on a
  // PostgreSQL server parsed and planned once per connection (one text for any number of ids).
  const renditionsOf = db
    .select()
    .from(renditions as PgTable)
    .where(sql`${owner} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(owner), asc(renditions.bitrateKbps))
    .prepare(`canto_${getTableName(renditions)}`);

  return {
    async source(id: string): Promise<MediaSource | null> {
      const [row] = await db
        .select({
          id: table.id,
          fileKey: original,
          durationMs: table.durationMs,
          status: table.mediaStatus,
          waveformKey: waveformKey ?? sql<null>`null`,
        })
        .from(table as PgTable)
        .where(eq(item, id))
        .limit(1);
      if (!row) return null;
      // Without a waveform to recognise its own outputs by, 'ready' says a re-run (after the
      // worker died before its ack) has nothing to do.
      if (!waveformKey && row.status === 'ready') return null;
      return {
        id: row.id as string,
        fileKey: row.fileKey as string | null,
        durationMs: row.durationMs as number | null,
        waveformKey: row.waveformKey as string | null,
      };
    },

    async renditionsOf(ids: string[]) {
      if (ids.length === 0) return [];
      return (await renditionsOf.execute({ ids })) as Array<R['$inferSelect']>;
    },

    /**
     * Stores a finished job's outcome and marks the row ready, in one transaction under the
     * row's lock (a delete waits, or went first). Null when the row is gone: its files are
     * the caller's to delete. Otherwise the storage keys this replaced (a re-run's are the
     * same keys, so usually none).
     */
    async complete(id: string, outcome: MediaOutcome): Promise<{ replaced: string[] } | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: table.id, waveformKey: waveformKey ?? sql<null>`null` })
          .from(table as PgTable)
          .where(eq(item, id))
          .for('update')
          .limit(1);
        if (!row) return null;
        const rowId = row.id as string;
        const before = await tx
          .select({ fileKey: renditions.fileKey })
          .from(renditions as PgTable)
          .where(eq(owner, rowId));
        const kept = new Set(outcome.renditions.map((r) => r.fileKey));
        const formats = outcome.renditions.map((r) => r.format);
        // Formats no longer made lose their rows; the rest are written over in place.
        await tx
          .delete(renditions)
          .where(
            and(
              eq(owner, rowId),
              formats.length > 0
                ? sql`${renditions.format} <> all(${sql.param(formats)}::text[])`
                : undefined,
            ),
          );
        for (const r of outcome.renditions) {
          const { format: _format, ...fields } = r;
          await tx
            .insert(renditions)
            .values({ ...r, [config.owner]: rowId } as R['$inferInsert'])
            .onConflictDoUpdate({ target: [owner, renditions.format], set: fields });
        }
        await tx
          .update(table)
          .set(
            set({
              mediaStatus: 'ready',
              loudnessLufs: outcome.loudness?.integratedLufs ?? null,
              truePeakDbtp: outcome.loudness?.truePeakDbtp ?? null,
              ...(waveformKey
                ? { waveformUrl: outcome.waveform.url, waveformKey: outcome.waveform.key }
                : {}),
            }),
          )
          .where(eq(table.id, rowId));
        const replaced = before.map((b) => b.fileKey as string).filter((k) => !kept.has(k));
        const previousWaveform = row.waveformKey as string | null;
        if (!waveformKey) replaced.push(outcome.waveform.key);
        else if (previousWaveform && previousWaveform !== outcome.waveform.key)
          replaced.push(previousWaveform);
        return { replaced };
      });
    },

    /** The job is dead: listeners keep the original, the uploader sees 'failed'. */
    async markFailed(id: string): Promise<void> {
      await db
        .update(table)
        .set(set({ mediaStatus: 'failed' }))
        .where(and(eq(item, id), eq(table.mediaStatus, 'processing')));
    },

    async reprocess(id, enqueue) {
      return db.transaction(async (tx) => {
        const [row] = (await tx
          .update(table)
          .set(set({ mediaStatus: 'processing' }))
          .where(and(eq(item, id), eq(table.mediaStatus, 'failed')))
          .returning()) as Array<T['$inferSelect']>;
        if (!row) return null;
        await enqueue(tx);
        return row;
      });
    },
  };
}
