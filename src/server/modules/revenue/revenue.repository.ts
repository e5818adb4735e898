import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/sql-results.ts';

export type RevenueRepository = ReturnType<typeof createRevenueRepository>;

/** What a run needs besides the month: the model's constants, from src/core. */
export type RunModel = {
  /** Each premium listener's contribution, cents (999). */
  contributionCents: bigint;
  /** The platform's fee on it, cents (50: 5 % rounded half up). */
  feeCents: bigint;
  platformFeePercent: number;
  /** Tier thresholds, ascending, with the artist's share in percent. */
  tiers: readonly { minStreams: number; sharePercent: number }[];
};

export type RunLedger = {
  artistsProcessed: number;
  premiumListeners: number;
  totalPremiumPoolCents: bigint;
  premiumFeeCents: bigint;
  premiumUnallocatedCents: bigint;
  premiumAllocatedCents: bigint;
  premiumArtistCents: bigint;
  adImpressions: number;
  adArtistCents: bigint;
  tipArtistCents: bigint;
};

export type RunRow = RunLedger & { month: string; ranAt: Date; ranBy: string | null };

export type MonthRow = {
  month: string;
  premiumRevenueCents: bigint;
  adRevenueCents: bigint;
  tipRevenueCents: bigint;
  totalRevenueCents: bigint;
  totalStreams: number;
};

/** Test-only: called inside a run's transaction after its writes, before the commit. */
export type BeforeCommit = (month: string) => Promise<void>;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const big = (v: unknown) => BigInt(String(v ?? 0));
const num = (v: unknown) => Number(v ?? 0);
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** The run's lock: one key per month, so runs of different months never wait for each other. */
const monthLock = (month: string) => sql`hashtextextended(${`canto:revenue:${month}`}, 0)`;

/**
 * The artist's share in percent for the `streams` column, a CASE over the tiers (highest
 * first); the constants come from src/core as integers, so the SQL holds no copy of them.
 */
function shareCase(tiers: RunModel['tiers']) {
  const ordered = [...tiers].sort((a, b) => b.minStreams - a.minStreams);
  const int = (n: number) => {
    if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
    return n;
  };
  const whens = ordered
    .slice(0, -1)
    .map((t) => `when streams >= ${int(t.minStreams)} then ${int(t.sharePercent)}`)
    .join(' ');
  return sql.raw(`(case ${whens} else ${int(ordered[ordered.length - 1]!.sharePercent)} end)`);
}

/** An integer constant written into the statement (bigint parameters differ by driver). */
const intSql = (n: bigint | number) => sql.raw(`${BigInt(n)}::bigint`);
const centsParam = (n: bigint) => sql`${n.toString()}::bigint`;

/**
 * artist_revenue and revenue_runs (docs/decisions/0029). The monthly run is set-based SQL in
 * one transaction; see `calculate`.
 */
export function createRevenueRepository(db: Db, options: { beforeCommit?: BeforeCommit } = {}) {
  return {
    /**
     * Recomputes the (artist, month) row's tip_revenue from that artist's paid tips of the
     * month, in `tx` (the transaction that marked the tip paid), keeping premium and ad.
     * Idempotent. No lock: the upsert waits on a run's uncommitted row of the same key and
     * then updates it, and its sum is read after the tip's own write (docs/decisions/0029).
     */
    async refreshTipRevenue(
      tx: Db,
      artistId: string,
      month: string,
      range: { start: Date; end: Date },
    ) {
      await tx.execute(sql`
        insert into artist_revenue as ar
          (artist_id, month, tip_revenue_cents, total_revenue_cents)
        select ${artistId}::uuid, ${month}, t.tips, t.tips
        from (select coalesce(sum(amount_cents - fee_cents), 0)::bigint as tips
              from tips
              where artist_id = ${artistId}::uuid and status = 'paid'
                and paid_at >= ${ts(range.start)} and paid_at < ${ts(range.end)}) t
        on conflict (artist_id, month) do update set
          tip_revenue_cents = excluded.tip_revenue_cents,
          total_revenue_cents = ar.premium_revenue_cents + ar.ad_revenue_cents
                                + excluded.tip_revenue_cents`);
    },

    /** The artist's months, newest first (artist_revenue_artist_month_key). */
    async months(artistId: string, range?: { from: string; to: string }): Promise<MonthRow[]> {
      const found = await queryRows<Record<string, unknown>>(
        db,
        sql`select month, premium_revenue_cents, ad_revenue_cents, tip_revenue_cents,
                   total_revenue_cents, total_streams
            from artist_revenue
            where artist_id = ${artistId}::uuid
              ${range ? sql`and month between ${range.from} and ${range.to}` : sql``}
            order by month desc`,
      );
      return found.map((r) => ({
        month: String(r.month),
        premiumRevenueCents: big(r.premium_revenue_cents),
        adRevenueCents: big(r.ad_revenue_cents),
        tipRevenueCents: big(r.tip_revenue_cents),
        totalRevenueCents: big(r.total_revenue_cents),
        totalStreams: num(r.total_streams),
      }));
    },

    /** The newest run, or null. */
    async lastRun(): Promise<RunRow | null> {
      const [r] = await queryRows<Record<string, unknown>>(
        db,
        sql`select * from revenue_runs order by ran_at desc, seq desc limit 1`,
      );
      return r ? toRun(r) : null;
    },

    /** Whether some run of `month` began at or after `since` (the month's end: a final run). */
    async ranSince(month: string, since: Date): Promise<boolean> {
      const found = await queryRows(
        db,
        sql`select 1 from revenue_runs where month = ${month} and ran_at >= ${ts(since)} limit 1`,
      );
      return found.length > 0;
    },

    /**
     * The month's run: in one transaction, takes the month's lock (null when another run of
     * it holds the lock), deletes the month's rows, inserts one row per artist with streams,
     * ad impressions or paid tips in the month, and records the run with its ledger.
     * Every figure is set-based SQL (docs/decisions/0029):
     *  - premium listeners: a subscription that was paid for at any time in the month;
     *  - each listener's net (contribution − fee) is split by listened ms among the artists
     *    they heard: floor of each exact part, then the leftover cents one each to the largest
     *    remainders, ties by artist id as text (window functions per listener);
     *  - premium = floor(allocation × share / 100); ad = floor(impressions × ½ × 95 % × share),
     *    counted in half-cents; tip = Σ (amount − fee) of paid tips; share by stream count.
     */
    async calculate(
      month: string,
      range: { start: Date; end: Date },
      model: RunModel,
      ran: { at: Date; by: string | null },
    ): Promise<RunRow | null> {
      return db.transaction(async (tx) => {
        const [lock] = await queryRows<{ locked: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(${monthLock(month)}) as locked`,
        );
        if (!lock?.locked) return null;
        // The premium listeners' records are a fifth of the month: one pass over the month
        // with a hash of the listeners beats 200,000 index probes (11 s against 3 s at 10M
        // records), which the planner otherwise picks; no join here wants a nested loop.
        await tx.execute(sql`set local enable_nestloop = off`);
        await tx.execute(sql`delete from artist_revenue where month = ${month}`);
        const { start, end } = range;
        const net = model.contributionCents - model.feeCents;
        const feeKeep = 100 - model.platformFeePercent;
        const share = shareCase(model.tiers);
        const [ledger] = await queryRows<Record<string, unknown>>(
          tx,
          sql`
          with premium as (
            select distinct s.user_id
            from subscriptions s
            where s.status in ('active', 'past_due', 'unpaid', 'canceled')
              and least(s.created_at, s.current_period_start) < ${ts(end)}
              and (case when s.status = 'canceled' and not s.cancel_at_period_end
                             and s.canceled_at is not null
                        then least(s.current_period_end, s.canceled_at)
                        else s.current_period_end end) > ${ts(start)}
          ),
          song_plays as (
            -- Plays per song or episode: few groups, so no record is joined to its artist.
            select sa.song_id, sa.podcast_episode_id, count(*)::bigint as plays
            from stream_analytics sa
            where sa.played_at >= ${ts(start)} and sa.played_at < ${ts(end)}
            group by 1, 2
          ),
          streams as (
            select coalesce(so.artist_id, p.creator_id) as artist_id, sum(sp.plays)::bigint as streams
            from song_plays sp
            left join songs so on so.id = sp.song_id
            left join podcast_episodes e on e.id = sp.podcast_episode_id
            left join podcasts p on p.id = e.podcast_id
            where coalesce(so.artist_id, p.creator_id) is not null
            group by 1
          ),
          heard as (
            -- Listened ms per (premium listener, artist): only premium listeners' records are
            -- joined and grouped (a fifth of them), never every listener's pairs.
            select sa.user_id, coalesce(so.artist_id, p.creator_id) as artist_id,
                   sum(sa.listened_ms)::bigint as ms
            from stream_analytics sa
            join premium pr on pr.user_id = sa.user_id
            left join songs so on so.id = sa.song_id
            left join podcast_episodes e on e.id = sa.podcast_episode_id
            left join podcasts p on p.id = e.podcast_id
            where sa.played_at >= ${ts(start)} and sa.played_at < ${ts(end)}
              and coalesce(so.artist_id, p.creator_id) is not null
            group by 1, 2
            having sum(sa.listened_ms) > 0
          ),
          exact as (
            select user_id, artist_id,
                   (${intSql(net)} * ms) / (sum(ms) over w)::bigint as floor_cents,
                   (${intSql(net)} * ms) % (sum(ms) over w)::bigint as remainder
            from heard
            window w as (partition by user_id)
          ),
          ranked as (
            select user_id, artist_id, floor_cents,
                   ${intSql(net)} - (sum(floor_cents) over (partition by user_id))::bigint as leftover,
                   -- uuid order is the byte order of the id's text (lower-case hex, fixed dashes)
                   row_number() over (partition by user_id
                                      order by remainder desc, artist_id) as place
            from exact
          ),
          allocated as (
            select artist_id,
                   sum(floor_cents + case when place <= leftover then 1 else 0 end)::bigint
                     as cents
            from ranked group by artist_id
          ),
          impressions as (
            select coalesce(so.artist_id, p.creator_id) as artist_id, count(*)::bigint as n
            from ad_impressions ai
            left join songs so on so.id = ai.song_id
            left join podcast_episodes e on e.id = ai.podcast_episode_id
            left join podcasts p on p.id = e.podcast_id
            where ai.created_at >= ${ts(start)} and ai.created_at < ${ts(end)}
            group by 1
          ),
          tipped as (
            select artist_id, sum(amount_cents - fee_cents)::bigint as cents
            from tips
            where status = 'paid' and paid_at >= ${ts(start)} and paid_at < ${ts(end)}
            group by artist_id
          ),
          artists as (
            select artist_id from streams
            union select artist_id from impressions where artist_id is not null
            union select artist_id from tipped
          ),
          figures as (
            select a.artist_id,
                   coalesce(st.streams, 0) as streams,
                   coalesce(al.cents, 0) as allocation,
                   coalesce(im.n, 0) as impressions,
                   coalesce(tp.cents, 0) as tip
            from artists a
            left join streams st on st.artist_id = a.artist_id
            left join allocated al on al.artist_id = a.artist_id
            left join impressions im on im.artist_id = a.artist_id
            left join tipped tp on tp.artist_id = a.artist_id
          ),
          revenue as (
            select artist_id, streams, allocation, impressions, tip,
                   allocation * ${share} / 100 as premium,
                   impressions * ${intSql(feeKeep)} * ${share} / 20000 as ad
            from figures
          ),
          inserted as (
            insert into artist_revenue
              (artist_id, month, premium_revenue_cents, ad_revenue_cents, tip_revenue_cents,
               total_revenue_cents, total_streams, calculated_at)
            select artist_id, ${month}, premium, ad, tip, premium + ad + tip, streams,
                   ${ts(ran.at)}
            from revenue
            returning premium_revenue_cents, ad_revenue_cents, tip_revenue_cents
          )
          select
            (select count(*) from inserted)::int as artists_processed,
            (select count(*) from premium)::int as premium_listeners,
            (select count(distinct user_id) from heard)::int as paying_listeners,
            (select coalesce(sum(cents), 0) from allocated)::bigint as allocated,
            (select coalesce(sum(premium_revenue_cents), 0) from inserted)::bigint as premium_artist,
            (select coalesce(sum(n), 0) from impressions)::bigint as ad_impressions,
            (select coalesce(sum(ad_revenue_cents), 0) from inserted)::bigint as ad_artist,
            (select coalesce(sum(tip_revenue_cents), 0) from inserted)::bigint as tip_artist`,
        );
        const listeners = num(ledger?.premium_listeners);
        const paying = num(ledger?.paying_listeners);
        const result: RunLedger = {
          artistsProcessed: num(ledger?.artists_processed),
          premiumListeners: listeners,
          totalPremiumPoolCents: BigInt(listeners) * model.contributionCents,
          premiumFeeCents: BigInt(listeners) * model.feeCents,
          premiumUnallocatedCents: BigInt(listeners - paying) * net,
          premiumAllocatedCents: big(ledger?.allocated),
          premiumArtistCents: big(ledger?.premium_artist),
          adImpressions: num(ledger?.ad_impressions),
          adArtistCents: big(ledger?.ad_artist),
          tipArtistCents: big(ledger?.tip_artist),
        };
        // The table's CHECK refuses a run whose pool does not add up, rolling it all back.
        const [run] = await queryRows<Record<string, unknown>>(
          tx,
          sql`insert into revenue_runs
                (month, artists_processed, total_premium_pool_cents, ran_at, ran_by,
                 premium_listeners, premium_fee_cents, premium_unallocated_cents,
                 premium_allocated_cents, premium_artist_cents, ad_impressions, ad_artist_cents,
                 tip_artist_cents)
              values (${month}, ${result.artistsProcessed}, ${centsParam(result.totalPremiumPoolCents)},
                      ${ts(ran.at)}, ${ran.by}, ${result.premiumListeners},
                      ${centsParam(result.premiumFeeCents)}, ${centsParam(result.premiumUnallocatedCents)},
                      ${centsParam(result.premiumAllocatedCents)}, ${centsParam(result.premiumArtistCents)},
                      ${result.adImpressions}, ${centsParam(result.adArtistCents)}, ${centsParam(result.tipArtistCents)})
              returning *`,
        );
        await options.beforeCommit?.(month);
        return toRun(run!);
      });
    },
  };
}

function toRun(r: Record<string, unknown>): RunRow {
  return {
    month: String(r.month),
    ranAt: date(r.ran_at),
    ranBy: (r.ran_by as string | null) ?? null,
    artistsProcessed: num(r.artists_processed),
    premiumListeners: num(r.premium_listeners),
    totalPremiumPoolCents: big(r.total_premium_pool_cents),
    premiumFeeCents: big(r.premium_fee_cents),
    premiumUnallocatedCents: big(r.premium_unallocated_cents),
    premiumAllocatedCents: big(r.premium_allocated_cents),
    premiumArtistCents: big(r.premium_artist_cents),
    adImpressions: num(r.ad_impressions),
    adArtistCents: big(r.ad_artist_cents),
    tipArtistCents: big(r.tip_artist_cents),
  };
}
