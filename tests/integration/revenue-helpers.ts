import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';

/*
 * A month of listening built straight in the tables (users, songs, shows, plays,
 * subscriptions, impressions, tips), and an independent re-implementation of the revenue
 * model (product §6) over the same description, written from the model's text with plain
 * bigint arithmetic: the tests compare the app's SQL against it.
 */

export type PlaySpec = { artist: number; ms: number; episode?: boolean; dayOffset?: number };
export type ListenerSpec = { premium: boolean; plays: PlaySpec[] };
export type MonthSpec = {
  month: string;
  artists: number;
  listeners: ListenerSpec[];
  /** Impressions per artist index (on the artist's song, or episode when odd). */
  impressions?: { artist: number; count: number; episode?: boolean }[];
  /** Paid tips: amount and fee in cents. */
  tips?: { artist: number; amount: number; fee: number }[];
};

export type Seeded = { artistIds: string[]; listenerIds: string[] };

const monthStart = (month: string) => new Date(`${month}-01T00:00:00.000Z`);
const at = (month: string, dayOffset = 0, ms = 0) =>
  new Date(monthStart(month).getTime() + dayOffset * 86_400_000 + ms).toISOString();

async function insertUsers(db: Db, n: number, prefix: string): Promise<string[]> {
  if (n === 0) return [];
  const tag = crypto.randomUUID().slice(0, 8);
  const found = (await db.execute(
    sql`insert into users (email, password_hash)
        select ${`${prefix}-${tag}-`} || g || '@revenue.test', 'x' from generate_series(1, ${n}) g
        returning id, email`,
  )) as unknown as { rows: { id: string; email: string }[] };
  const order = (e: string) => Number(e.split('-').pop()!.split('@')[0]);
  return found.rows.sort((a, b) => order(a.email) - order(b.email)).map((r) => r.id);
}

/** Writes the month's rows; each artist has one song and one show with one episode. */
export async function seedMonth(db: Db, spec: MonthSpec): Promise<Seeded> {
  const artistIds = await insertUsers(db, spec.artists, 'artist');
  const listenerIds = await insertUsers(db, spec.listeners.length, 'listener');
  const songs: string[] = [];
  const episodes: string[] = [];
  for (const artistId of artistIds) {
    const s = (await db.execute(
      sql`insert into songs (title, artist_id, file_url) values ('Song', ${artistId}, '/media/x/s') returning id`,
    )) as unknown as { rows: { id: string }[] };
    songs.push(s.rows[0]!.id);
    const e = (await db.execute(
      sql`with show as (insert into podcasts (creator_id, title) values (${artistId}, 'Show')
                        returning id)
          insert into podcast_episodes (podcast_id, title, audio_url)
          select id, 'Episode', '/media/x/y' from show returning id`,
    )) as unknown as { rows: { id: string }[] };
    episodes.push(e.rows[0]!.id);
  }
  const start = monthStart(spec.month);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  for (const [i, listener] of spec.listeners.entries()) {
    const userId = listenerIds[i]!;
    if (listener.premium)
      await db.execute(
        sql`insert into subscriptions (user_id, provider, status, current_period_start,
                                       current_period_end, created_at)
            values (${userId}, 'local', 'active', ${start.toISOString()}::timestamptz,
                    ${end.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz)`,
      );
    for (const [k, play] of listener.plays.entries()) {
      const item = play.episode
        ? sql`null, ${episodes[play.artist]!}::uuid`
        : sql`${songs[play.artist]!}::uuid, null`;
      await db.execute(
        sql`insert into stream_analytics (user_id, song_id, podcast_episode_id, played_at, listened_ms)
            values (${userId}, ${item}, ${at(spec.month, play.dayOffset ?? 0, k)}::timestamptz,
                    ${play.ms})`,
      );
    }
  }
  for (const imp of spec.impressions ?? []) {
    const item = imp.episode
      ? sql`null, ${episodes[imp.artist]!}::uuid`
      : sql`${songs[imp.artist]!}::uuid, null`;
    await db.execute(
      sql`insert into ad_impressions (song_id, podcast_episode_id, created_at)
          select ${item}, ${at(spec.month, 1)}::timestamptz from generate_series(1, ${imp.count})`,
    );
  }
  for (const tip of spec.tips ?? []) {
    await db.execute(
      sql`insert into tips (artist_id, amount_cents, fee_cents, provider, provider_ref, status, paid_at)
          values (${artistIds[tip.artist]!}, ${tip.amount}, ${tip.fee}, 'local',
                  ${crypto.randomUUID()}, 'paid', ${at(spec.month, 2)}::timestamptz)`,
    );
  }
  return { artistIds, listenerIds };
}

export type ExpectedRow = {
  artist_id: string;
  premium: bigint;
  ad: bigint;
  tip: bigint;
  total: bigint;
  streams: number;
  allocation: bigint;
};

/** The model, from its text: one listener at a time, then each artist's share. */
export function referenceRevenue(spec: MonthSpec, seeded: Seeded) {
  const CONTRIBUTION = 999n;
  // 5 % rounded half up: 49.95 → 50.
  const FEE = (CONTRIBUTION * 5n + 50n) / 100n;
  const NET = CONTRIBUTION - FEE;
  const share = (streams: number) => (streams >= 100_000 ? 70n : streams >= 10_000 ? 75n : 80n);
  const allocation = new Map<string, bigint>();
  const streams = new Map<string, number>();
  let premiumListeners = 0;
  let unallocated = 0n;
  for (const listener of spec.listeners) {
    for (const p of listener.plays) {
      const id = seeded.artistIds[p.artist]!;
      streams.set(id, (streams.get(id) ?? 0) + 1);
    }
    if (!listener.premium) continue;
    premiumListeners++;
    const ms = new Map<string, bigint>();
    for (const p of listener.plays) {
      const id = seeded.artistIds[p.artist]!;
      ms.set(id, (ms.get(id) ?? 0n) + BigInt(p.ms));
    }
    const heard = [...ms].filter(([, v]) => v > 0n);
    const total = heard.reduce((s, [, v]) => s + v, 0n);
    if (total === 0n) {
      unallocated += NET;
      continue;
    }
    const parts = heard.map(([id, v]) => ({
      id,
      floor: (NET * v) / total,
      rem: (NET * v) % total,
    }));
    let left = NET - parts.reduce((s, p) => s + p.floor, 0n);
    parts.sort((a, b) => (a.rem === b.rem ? (a.id < b.id ? -1 : 1) : a.rem > b.rem ? -1 : 1));
    for (const p of parts) {
      const extra = left > 0n ? 1n : 0n;
      left -= extra;
      allocation.set(p.id, (allocation.get(p.id) ?? 0n) + p.floor + extra);
    }
  }
  const impressions = new Map<string, bigint>();
  for (const imp of spec.impressions ?? []) {
    const id = seeded.artistIds[imp.artist]!;
    impressions.set(id, (impressions.get(id) ?? 0n) + BigInt(imp.count));
  }
  const tips = new Map<string, bigint>();
  for (const t of spec.tips ?? []) {
    const id = seeded.artistIds[t.artist]!;
    tips.set(id, (tips.get(id) ?? 0n) + BigInt(t.amount - t.fee));
  }
  const ids = new Set([...streams.keys(), ...impressions.keys(), ...tips.keys()]);
  const rows: ExpectedRow[] = [...ids].sort().map((id) => {
    const s = share(streams.get(id) ?? 0);
    const alloc = allocation.get(id) ?? 0n;
    const premium = (alloc * s) / 100n;
    // impressions × 0.5 × 0.95 × share, floored: in half-cents × percent × percent.
    const ad = ((impressions.get(id) ?? 0n) * 95n * s) / 20_000n;
    const tip = tips.get(id) ?? 0n;
    return {
      artist_id: id,
      premium,
      ad,
      tip,
      total: premium + ad + tip,
      streams: streams.get(id) ?? 0,
      allocation: alloc,
    };
  });
  return {
    rows,
    premiumListeners,
    pool: BigInt(premiumListeners) * CONTRIBUTION,
    fee: BigInt(premiumListeners) * FEE,
    unallocated,
  };
}

export type RevenueRecord = {
  artist_id: string;
  premium: string;
  ad: string;
  tip: string;
  total: string;
  streams: string;
};

export async function monthRows(db: Db, month: string) {
  const found = (await db.execute(
    sql`select artist_id, premium_revenue_cents::text as premium, ad_revenue_cents::text as ad,
               tip_revenue_cents::text as tip, total_revenue_cents::text as total,
               total_streams::text as streams
        from artist_revenue where month = ${month} order by artist_id`,
  )) as unknown as { rows: RevenueRecord[] };
  return found.rows.map((r) => ({
    artist_id: r.artist_id,
    premium: BigInt(r.premium),
    ad: BigInt(r.ad),
    tip: BigInt(r.tip),
    total: BigInt(r.total),
    streams: Number(r.streams),
  }));
}

/** The expected rows without the allocation column (what artist_revenue holds). */
export const asStored = (rows: ExpectedRow[]) => rows.map(({ allocation: _a, ...rest }) => rest);
