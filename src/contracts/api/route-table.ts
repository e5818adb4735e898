import { adminApi } from './admin.api.ts';
import { adsApi } from './ads.api.ts';
import { aiApi } from './ai.api.ts';
import { artistAnalyticsApi } from './artist-analytics.api.ts';
import { authApi } from './auth.api.ts';
import type { RouteDefinition } from './define-route.ts';
import { libraryApi } from './library.api.ts';
import { listeningApi } from './listening.api.ts';
import { mfaApi } from './mfa.api.ts';
import { notificationsApi } from './notifications.api.ts';
import { payoutsApi } from './payouts.api.ts';
import { playlistsApi } from './playlists.api.ts';
import { podcastFeedApi } from './podcast-feed.api.ts';
import { podcastsApi } from './podcasts.api.ts';
import { premiumApi } from './premium.api.ts';
import { recommendationsApi } from './recommendations.api.ts';
import { revenueApi } from './revenue.api.ts';
import { scrobblingApi } from './scrobbling.api.ts';
import { searchApi } from './search.api.ts';
import { shareApi } from './share.api.ts';
import { socialApi } from './social.api.ts';
import { songsApi } from './songs.api.ts';
import { subsonicApi } from './subsonic.api.ts';
import { systemApi } from './system.api.ts';
import { tipsApi } from './tips.api.ts';
import { withdrawalsApi } from './withdrawals.api.ts';

/*
 * Every feature's part of the route table, for what needs it whole: the test that the server
 * registers exactly these routes. The web app imports a feature's own file
 * (`@/contracts/api/playlists.api.ts`), so a screen's chunk carries only its own schemas.
 */
export const routeTable = {
  system: systemApi,
  auth: authApi,
  mfa: mfaApi,
  admin: adminApi,
  songs: songsApi,
  search: searchApi,
  listening: listeningApi,
  scrobbling: scrobblingApi,
  library: libraryApi,
  playlists: playlistsApi,
  podcasts: podcastsApi,
  podcastFeed: podcastFeedApi,
  notifications: notificationsApi,
  social: socialApi,
  premium: premiumApi,
  ads: adsApi,
  revenue: revenueApi,
  tips: tipsApi,
  payouts: payoutsApi,
  withdrawals: withdrawalsApi,
  artistAnalytics: artistAnalyticsApi,
  ai: aiApi,
  recommendations: recommendationsApi,
  subsonic: subsonicApi,
  share: shareApi,
} satisfies Record<string, Record<string, RouteDefinition>>;

/** Each operation with its name in the table, e.g. `playlists.addTrack`. */
export function tableOperations(): { name: string; route: RouteDefinition }[] {
  return Object.entries(routeTable).flatMap(([feature, routes]) =>
    Object.entries(routes).map(([name, route]) => ({ name: `${feature}.${name}`, route })),
  );
}
