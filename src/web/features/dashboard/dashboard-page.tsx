// Spec §2 Artist dashboard: daily streams and unique listeners as charts (with tables for
// screen readers), the figures, top songs and episodes and new followers. Every figure comes
// computed from the server (GET /api/artist/analytics); artists only, by the route guard and
// the server.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LucideIcon } from 'lucide-react';
import { BarChart3, DollarSign, Disc3, Headphones, Mic, Upload } from 'lucide-react';
import type { ArtistAnalytics } from '@/contracts/artist-analytics.contract.ts';
import { dashboardMessages, DASHBOARD_DAYS } from '@/core/validation/artist-analytics.rules.ts';
import { ESTIMATE_TENTHS_OF_CENT_PER_STREAM } from '@/core/validation/revenue.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Card } from '@/web/components/ui/card.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { UserAvatar } from '@/web/features/social/index.ts';
import { DailyChart } from './daily-chart.tsx';
import {
  countOf,
  followedAgo,
  formatCents,
  formatCount,
  isNewArtist,
  monthName,
  tierName,
} from './dashboard-format.ts';
import { useArtistAnalytics } from './use-artist-analytics.ts';

function Figure({
  label,
  value,
  detail,
  icon: Icon,
}: {
  label: string;
  value: string;
  detail: string;
  icon: LucideIcon;
}) {
  return (
    <Card className="flex flex-col gap-1 p-5">
      <dt className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </dt>
      <dd className="text-3xl font-bold tracking-tight tabular-nums">{value}</dd>
      <dd className="text-xs text-muted-foreground">{detail}</dd>
    </Card>
  );
}

function Figures({ a }: { a: ArtistAnalytics }) {
  const perStream = `$${(ESTIMATE_TENTHS_OF_CENT_PER_STREAM / 1000).toFixed(3)}`;
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 md:gap-4 xl:grid-cols-4">
      <Figure
        label="Songs & Episodes"
        value={formatCount(a.songs_count + a.episodes_count)}
        detail={`${countOf(a.songs_count, 'song')} · ${countOf(a.episodes_count, 'episode')}`}
        icon={Disc3}
      />
      <Figure
        label="Recent Streams"
        value={formatCount(a.recent_streams)}
        detail="Last 7 days"
        icon={Headphones}
      />
      <Figure
        label="Estimated Revenue"
        value={formatCents(a.estimated_revenue_cents)}
        detail={`${countOf(a.streams_30d, 'stream')} in ${DASHBOARD_DAYS} days at ${perStream} each`}
        icon={DollarSign}
      />
      <Figure
        label="Tier"
        value={a.tier ? tierName(a.tier.tier) : '—'}
        detail={
          a.tier
            ? `${a.tier.share_percent}% artist share · ${countOf(a.tier.month_streams, 'stream')} in ${monthName(a.tier.month)}`
            : dashboardMessages.noTier
        }
        icon={BarChart3}
      />
    </dl>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card>
      <section aria-labelledby={id} className="p-5">
        <h2 id={id} className="mb-4 text-lg font-semibold">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="py-4 text-sm text-muted-foreground">{children}</p>;
}

function Ranked({
  items,
  empty,
}: {
  items: { id: string; title: string; sub?: string; plays: number }[];
  empty: string;
}) {
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ol className="divide-y divide-border/60">
      {items.map((s, i) => (
        <li key={s.id} className="flex items-center gap-3 py-2.5">
          <span aria-hidden="true" className="w-5 shrink-0 text-muted-foreground tabular-nums">
            {i + 1}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium" title={s.title}>
              {s.title}
            </span>
            {s.sub && <span className="block truncate text-xs text-muted-foreground">{s.sub}</span>}
          </span>
          <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
            {countOf(s.plays, 'play')}
          </span>
        </li>
      ))}
    </ol>
  );
}

function NewFollowers({
  followers,
  now,
}: {
  followers: ArtistAnalytics['new_followers'];
  now: number;
}) {
  return (
    <>
      <p className="mb-3 text-sm text-muted-foreground">
        <span className="text-2xl font-bold text-foreground tabular-nums">
          {formatCount(followers.count)}
        </span>{' '}
        new {followers.count === 1 ? 'follower' : 'followers'} in the last {DASHBOARD_DAYS} days
      </p>
      {followers.latest.length === 0 ? (
        <Empty>No new followers yet</Empty>
      ) : (
        <ul className="space-y-3">
          {followers.latest.map((f) => (
            <li key={f.user_id} className="flex items-center gap-3">
              <UserAvatar src={f.avatar_url} name={f.display_name} className="size-9" />
              <Link
                to={`/profile/${f.user_id}`}
                className="min-w-0 flex-1 truncate font-medium hover:underline"
              >
                {f.display_name ?? 'Anonymous User'}
              </Link>
              <span className="shrink-0 text-xs text-muted-foreground">
                {followedAgo(f.followed_at, now)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function DashboardSkeleton() {
  return (
    <div aria-hidden="true" data-testid="dashboard-loading" className="space-y-6">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 md:gap-4 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} className="space-y-3 p-5">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-8 w-20" />
            <Skeleton className="h-3 w-32" />
          </Card>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {Array.from({ length: 2 }, (_, i) => (
          <Card key={i} className="space-y-3 p-5">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-56 w-full" />
          </Card>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        {Array.from({ length: 3 }, (_, i) => (
          <Card key={i} className="space-y-4 p-5">
            <Skeleton className="h-5 w-32" />
            {Array.from({ length: 5 }, (_, j) => (
              <Skeleton key={j} className="h-6 w-full" />
            ))}
          </Card>
        ))}
      </div>
    </div>
  );
}

function NewArtistEmpty() {
  return (
    <section
      aria-labelledby="dashboard-empty"
      className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-2xl border border-dashed px-6 py-16 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <BarChart3 className="size-6" aria-hidden="true" />
      </span>
      <h2 id="dashboard-empty" className="text-xl font-semibold">
        {dashboardMessages.empty}
      </h2>
      <p className="text-muted-foreground">{dashboardMessages.emptyHint}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/upload">
            <Upload aria-hidden="true" />
            Upload Music
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/podcast-upload">
            <Mic aria-hidden="true" />
            Upload Podcast
          </Link>
        </Button>
      </div>
    </section>
  );
}

export type DashboardState =
  | { status: 'loading' }
  | { status: 'failed'; retrying: boolean; onRetry: () => void }
  | { status: 'ready'; analytics: ArtistAnalytics; now: number };

/** The screen for a given state (loading, failed, a new artist, figures). */
export function DashboardView({ state }: { state: DashboardState }) {
  if (state.status === 'loading')
    return (
      <div aria-busy="true" className="mx-auto max-w-6xl">
        <p role="status" className="sr-only">
          Loading your dashboard...
        </p>
        <DashboardSkeleton />
      </div>
    );
  if (state.status === 'failed')
    return (
      <div className="mx-auto max-w-6xl">
        <LoadFailed
          message={dashboardMessages.loadFailed}
          retrying={state.retrying}
          onRetry={state.onRetry}
        />
      </div>
    );
  const a = state.analytics;
  if (isNewArtist(a)) return <NewArtistEmpty />;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <section aria-label="Overview">
        <Figures a={a} />
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-5">
          <DailyChart
            id="daily-streams"
            title="Daily Streams"
            days={a.days}
            value="streams"
            unit={['stream', 'streams']}
            color="var(--brand-from)"
          />
        </Card>
        <Card className="p-5">
          <DailyChart
            id="unique-listeners"
            title="Unique Listeners"
            days={a.days}
            value="unique_listeners"
            unit={['listener', 'listeners']}
            color="var(--brand-to)"
          />
        </Card>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Panel id="top-songs" title="Top Songs">
          <Ranked items={a.top_songs} empty="No songs played yet" />
        </Panel>
        <Panel id="top-episodes" title="Top Episodes">
          <Ranked
            items={a.top_episodes.map((e) => ({ ...e, sub: e.podcast_title }))}
            empty="No episodes played yet"
          />
        </Panel>
        <Panel id="new-followers" title="New Followers">
          <NewFollowers followers={a.new_followers} now={state.now} />
        </Panel>
      </div>
    </div>
  );
}

export default function DashboardPage() {
  const query = useArtistAnalytics();
  const state: DashboardState = query.data
    ? { status: 'ready', analytics: query.data, now: Date.now() }
    : query.isError
      ? { status: 'failed', retrying: query.isFetching, onRetry: () => void query.refetch() }
      : { status: 'loading' };
  return <DashboardView state={state} />;
}
