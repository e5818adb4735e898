import type { ArtistAnalytics } from '../../../contracts/artist-analytics.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import {
  DASHBOARD_DAYS,
  DASHBOARD_TOP,
  estimatedRevenueCents,
  NEW_FOLLOWERS_SHOWN,
} from '../../../core/validation/artist-analytics.rules.ts';
import { artistTier, RECENT_STREAM_DAYS } from '../../../core/validation/revenue.rules.ts';
import type { ListeningModule } from '../listening/listening.module.ts';
import type { ArtistAnalyticsRepository } from './artist-analytics.repository.ts';

export type ArtistAnalyticsService = ReturnType<typeof createArtistAnalyticsService>;

const DAY_MS = 86_400_000;

/** The artist dashboard (spec §2): the daily series from listening, the rest in one read. */
export function createArtistAnalyticsService({
  analytics,
  artistDays,
  clock,
}: {
  analytics: ArtistAnalyticsRepository;
  artistDays: ListeningModule['artistDays'];
  clock: Clock;
}) {
  return {
    async of(artistId: string): Promise<ArtistAnalytics> {
      const now = clock.now();
      const todayStart = Date.parse(now.toISOString().slice(0, 10));
      const [days, overview] = await Promise.all([
        artistDays(artistId, DASHBOARD_DAYS),
        analytics.countEpisodePlays(artistId, new Date(todayStart)).then(() =>
          analytics.overview(artistId, {
            // The same window as the daily series: since the first of its 30 UTC days.
            followersSince: new Date(todayStart - (DASHBOARD_DAYS - 1) * DAY_MS),
            top: DASHBOARD_TOP,
            followersShown: NEW_FOLLOWERS_SHOWN,
          }),
        ),
      ]);
      // Summing at most 30 day rows SQL has already counted, not plays.
      const streams30 = days.reduce((n, d) => n + d.streams, 0);
      const recent = days.slice(-RECENT_STREAM_DAYS).reduce((n, d) => n + d.streams, 0);
      const month = overview.latest_month;
      const tier = month ? artistTier(Number(month.total_streams)) : null;
      return {
        days: days.map((d) => ({
          date: d.date,
          streams: d.streams,
          unique_listeners: d.uniqueListeners,
        })),
        streams_30d: streams30,
        recent_streams: recent,
        songs_count: Number(overview.songs_count),
        episodes_count: Number(overview.episodes_count),
        estimated_revenue_cents: estimatedRevenueCents(streams30),
        tier:
          month && tier
            ? {
                tier: tier.tier,
                share_percent: tier.sharePercent,
                month: month.month,
                month_streams: Number(month.total_streams),
              }
            : null,
        top_songs: overview.top_songs.map((s) => ({ ...s, plays: Number(s.plays) })),
        top_episodes: overview.top_episodes.map((e) => ({ ...e, plays: Number(e.plays) })),
        new_followers: {
          count: Number(overview.new_followers.count),
          latest: overview.new_followers.latest.map((f) => ({
            ...f,
            followed_at: new Date(f.followed_at).toISOString(),
          })),
        },
      };
    },
  };
}
