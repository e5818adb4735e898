// Spec §2 Stats ('Your Listening Stats'): four figures, top artists, top genres, most played
// songs and the last 7 days. Every figure comes computed from the server; a failure is only
// logged and the screen shows no data (spec §8).
import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { CircleCheck, Clock, Headphones, Percent } from 'lucide-react';
import type { UserStats } from '@/contracts/listening.contract.ts';
import { Card } from '@/web/components/ui/card.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { useListeningStats } from './use-listening.ts';
import {
  barPercent,
  countOf,
  dayFull,
  dayShort,
  formatCount,
  formatListened,
  formatPercent,
  hasActivity,
} from './listening-format.ts';

function Figure({ label, value, icon: Icon }: { label: string; value: string; icon: LucideIcon }) {
  return (
    <Card className="flex flex-col-reverse gap-1 p-5">
      {/* dt after dd on screen (the number leads), but read as "Total Streams: 12". */}
      <dt className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </dt>
      <dd className="text-3xl font-bold tracking-tight tabular-nums">{value}</dd>
    </Card>
  );
}

function Figures({ stats }: { stats: UserStats }) {
  return (
    <dl className="grid grid-cols-2 gap-3 md:gap-4 lg:grid-cols-4">
      <Figure label="Total Streams" value={formatCount(stats.totalStreams)} icon={Headphones} />
      <Figure label="Hours Listened" value={formatListened(stats.totalHours)} icon={Clock} />
      <Figure label="Completion Rate" value={formatPercent(stats.completionRate)} icon={Percent} />
      <Figure
        label="Completed Plays"
        value={formatCount(stats.completedStreams)}
        icon={CircleCheck}
      />
    </dl>
  );
}

function Panel({
  id,
  title,
  children,
  className,
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={className}>
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

function TopArtists({ artists }: { artists: UserStats['topArtists'] }) {
  if (artists.length === 0) return <Empty>No artists yet</Empty>;
  return (
    <ol className="space-y-3">
      {artists.map((a, i) => (
        <li key={`${a.name}-${i}`} className="flex items-center gap-3">
          <span
            aria-hidden="true"
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground tabular-nums"
          >
            {i + 1}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium" title={a.name}>
              {a.name}
            </p>
            <p className="text-xs text-muted-foreground tabular-nums">
              {countOf(a.streams, 'stream')} · {formatListened(a.hours)}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

function TopGenres({ genres }: { genres: UserStats['topGenres'] }) {
  if (genres.length === 0) return <Empty>No genres yet</Empty>;
  const top = Math.max(...genres.map((g) => g.count));
  return (
    <ul className="space-y-3">
      {genres.map((g) => (
        <li key={g.genre}>
          <div className="mb-1 flex items-baseline justify-between gap-3 text-sm">
            <span className="truncate font-medium">{g.genre}</span>
            <span className="shrink-0 text-muted-foreground tabular-nums">
              {countOf(g.count, 'stream')}
            </span>
          </div>
          {/* Visual only: the count beside the name says the same thing in words. */}
          <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-muted">
            <div
              data-testid="genre-bar"
              className="brand-gradient h-full rounded-full"
              style={{ width: `${barPercent(g.count, top)}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}

function TopSongs({ songs }: { songs: UserStats['topSongs'] }) {
  if (songs.length === 0) return <Empty>No songs played yet</Empty>;
  return (
    <ol className="divide-y divide-border/60">
      {songs.slice(0, 5).map((s, i) => (
        <li key={`${s.title}-${i}`} className="flex items-center gap-3 py-2.5">
          <span aria-hidden="true" className="w-5 shrink-0 text-muted-foreground tabular-nums">
            {i + 1}
          </span>
          <span className="min-w-0 flex-1 truncate font-medium" title={s.title}>
            {s.title}
          </span>
          <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
            {countOf(s.plays, 'play')}
          </span>
        </li>
      ))}
    </ol>
  );
}

function Activity({ days }: { days: UserStats['activityData'] }) {
  const busiest = Math.max(...days.map((d) => d.streams));
  return (
    <ol className="flex h-48 items-end gap-2 sm:gap-4">
      {days.map((d) => (
        <li key={d.date} className="flex h-full min-w-0 flex-1 flex-col items-center gap-1.5">
          <span className="sr-only">
            {dayFull(d.date)}: {countOf(d.streams, 'stream')}
          </span>
          <span aria-hidden="true" className="text-xs text-muted-foreground tabular-nums">
            {formatCount(d.streams)}
          </span>
          <div aria-hidden="true" className="flex w-full max-w-12 flex-1 items-end">
            <div
              data-testid="activity-bar"
              className="brand-gradient w-full rounded-t-md"
              style={{ height: `${barPercent(d.streams, busiest)}%` }}
            />
          </div>
          <span aria-hidden="true" className="text-xs text-muted-foreground">
            {dayShort(d.date)}
          </span>
        </li>
      ))}
    </ol>
  );
}

function StatsSkeleton() {
  return (
    <div aria-hidden="true" data-testid="stats-loading" className="space-y-6">
      <div className="grid grid-cols-2 gap-3 md:gap-4 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} className="space-y-3 p-5">
            <Skeleton className="h-8 w-20" />
            <Skeleton className="h-4 w-28" />
          </Card>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {Array.from({ length: 3 }, (_, i) => (
          <Card key={i} className="space-y-4 p-5">
            <Skeleton className="h-5 w-40" />
            {Array.from({ length: 5 }, (_, j) => (
              <Skeleton key={j} className="h-6 w-full" />
            ))}
          </Card>
        ))}
      </div>
    </div>
  );
}

/** The screen for given stats (no data reads as zeros and empty sections). */
export function StatsView({ stats, loading }: { stats: UserStats; loading: boolean }) {
  return (
    <div aria-busy={loading} className="mx-auto max-w-6xl">
      {loading ? (
        <>
          <p role="status" className="sr-only">
            Loading your stats...
          </p>
          <StatsSkeleton />
        </>
      ) : (
        <div className="space-y-6">
          <section aria-label="Overview">
            <Figures stats={stats} />
          </section>
          <div className="grid gap-6 lg:grid-cols-2">
            <Panel id="top-artists" title="Your Top Artists">
              <TopArtists artists={stats.topArtists} />
            </Panel>
            <Panel id="top-genres" title="Top Genres">
              <TopGenres genres={stats.topGenres} />
            </Panel>
            <Panel id="most-played" title="Most Played Songs">
              <TopSongs songs={stats.topSongs} />
            </Panel>
            {hasActivity(stats.activityData) && (
              <Panel id="activity" title="Last 7 Days Activity">
                <Activity days={stats.activityData} />
              </Panel>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

export default function StatsPage() {
  const { stats, loading } = useListeningStats();
  return <StatsView stats={stats} loading={loading} />;
}
