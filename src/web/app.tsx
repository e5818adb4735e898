import {
  Children,
  isValidElement,
  lazy,
  StrictMode,
  Suspense,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  Outlet,
  RouterProvider,
  type RouteObject,
} from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { screens, type ScreenHandle } from '@/web/shell/screens.ts';
import { useSessionKeeper } from '@/web/session/use-session.ts';
import { queryClient } from '@/web/session/query-client.ts';
import { AppShell } from '@/web/shell/app-shell.tsx';
import { FullPageLoading } from '@/web/components/page-status.tsx';
import { GuestOnly, RequireRole, RequireSignedIn } from '@/web/shell/route-guards.tsx';
import { PlayerProvider } from '@/web/player/player-provider.tsx';
import { useEpisodeProgressCache } from '@/web/features/podcasts/index.ts';

type Screen = ComponentType & { load: () => Promise<unknown> };

/**
 * A screen in its own chunk. `load()` starts loading it ahead of the first render
 * (preloadScreen); a screen whose module is in by the time it mounts renders at once, instead
 * of suspending and showing the loading message for a frame or more.
 */
function lazyScreen(importPage: () => Promise<{ default: ComponentType }>): Screen {
  let loaded: ComponentType | undefined;
  const load = () =>
    importPage().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load);
  function LazyScreen() {
    // Chosen once per mount: switching from Lazy to the loaded component would remount it.
    const [Page] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Page />;
  }
  return Object.assign(LazyScreen, { load });
}

// One chunk per screen: the shell, session and player ship in the first load, and the
// server preloads the requested screen's chunk beside them (docs/decisions/0026-first-load.md).
const AuthPage = lazyScreen(() => import('./features/auth/auth-page.tsx'));
const ForgotPasswordPage = lazyScreen(() => import('./features/auth/forgot-password-page.tsx'));
const ResetPasswordPage = lazyScreen(() => import('./features/auth/reset-password-page.tsx'));
const VerifyEmailPage = lazyScreen(() => import('./features/auth/verify-email-page.tsx'));
const HomePage = lazyScreen(() => import('./features/catalogue/home-page.tsx'));
const BrowsePage = lazyScreen(() => import('./features/catalogue/browse-page.tsx'));
const SearchPage = lazyScreen(() => import('./features/catalogue/search-page.tsx'));
const UploadPage = lazyScreen(() => import('./features/upload/upload-page.tsx'));
const AdminArtistApprovalPage = lazyScreen(
  () => import('./features/artist-approval/artist-approval-page.tsx'),
);
const NotFoundPage = lazyScreen(() => import('./shell/not-found-page.tsx'));
const ScreenPage = lazyScreen(() => import('./shell/screen-page.tsx'));
const SecurityPage = lazyScreen(() => import('./features/auth/security-page.tsx'));
const ScrobblingPage = lazyScreen(() => import('./features/scrobbling/scrobbling-page.tsx'));
const RecentlyPlayedPage = lazyScreen(
  () => import('./features/listening/recently-played-page.tsx'),
);
const RecommendationsPage = lazyScreen(
  () => import('./features/recommendations/recommendations-page.tsx'),
);
const DownloadsPage = lazyScreen(() => import('./features/downloads/downloads-page.tsx'));
const StatsPage = lazyScreen(() => import('./features/listening/stats-page.tsx'));
const DashboardPage = lazyScreen(() => import('./features/dashboard/dashboard-page.tsx'));
const ArtistRevenuePage = lazyScreen(
  () => import('./features/artist-revenue/artist-revenue-page.tsx'),
);
const LikedSongsPage = lazyScreen(() => import('./features/library/liked-songs-page.tsx'));
const PlaylistsPage = lazyScreen(() => import('./features/library/playlists-page.tsx'));
const PlaylistPage = lazyScreen(() => import('./features/library/playlist-page.tsx'));
const ProfilePage = lazyScreen(() => import('./features/social/profile-page.tsx'));
const FollowingPage = lazyScreen(() => import('./features/social/following-page.tsx'));
const NotificationsPage = lazyScreen(
  () => import('./features/notifications/notifications-page.tsx'),
);
const PremiumPage = lazyScreen(() => import('./features/premium/premium-page.tsx'));
const CheckoutPage = lazyScreen(() => import('./features/premium/checkout-page.tsx'));
const TipCheckoutPage = lazyScreen(() => import('./features/tips/tip-checkout-page.tsx'));
const AiMusicPage = lazyScreen(() => import('./features/ai-music/ai-music-page.tsx'));
const ManageSubscriptionPage = lazyScreen(
  () => import('./features/premium/manage-subscription-page.tsx'),
);
const AdminAdsPage = lazyScreen(() => import('./features/ads/admin-ads-page.tsx'));
const AdminRevenuePage = lazyScreen(() => import('./features/revenue/admin-revenue-page.tsx'));
const WithdrawalSettingsPage = lazyScreen(
  () => import('./features/withdrawals/withdrawal-settings-page.tsx'),
);
const AdminWithdrawalsPage = lazyScreen(
  () => import('./features/withdrawals/admin-withdrawals-page.tsx'),
);
const PodcastsPage = lazyScreen(() => import('./features/podcasts/podcasts-page.tsx'));
const PodcastUploadPage = lazyScreen(() => import('./features/podcasts/podcast-upload-page.tsx'));
const SongPage = lazyScreen(() => import('./features/sharing/song-page.tsx'));
const ShowLinkPage = lazyScreen(() =>
  import('./features/sharing/podcast-link-pages.tsx').then((m) => ({ default: m.ShowLinkPage })),
);
const EpisodeLinkPage = lazyScreen(() =>
  import('./features/sharing/podcast-link-pages.tsx').then((m) => ({
    default: m.EpisodeLinkPage,
  })),
);

function screen(path: string, handle: ScreenHandle, Page: Screen = ScreenPage): RouteObject {
  return { path, handle, element: <Page /> };
}

const routes: RouteObject[] = [
  {
    path: '/auth',
    element: (
      <GuestOnly>
        <Suspense fallback={<FullPageLoading />}>
          <AuthPage />
        </Suspense>
      </GuestOnly>
    ),
  },
  // Open signed in or out: a mailed link may be opened in either state.
  ...(
    [
      ['/forgot-password', ForgotPasswordPage],
      ['/reset-password', ResetPasswordPage],
      ['/verify-email', VerifyEmailPage],
    ] as const
  ).map(([path, Page]) => ({
    path,
    element: (
      <Suspense fallback={<FullPageLoading />}>
        <Page />
      </Suspense>
    ),
  })),
  {
    element: (
      <RequireSignedIn
        // A public screen (a song's share link) opens for a visitor without shell or player.
        visitor={
          <Suspense fallback={<FullPageLoading />}>
            <Outlet />
          </Suspense>
        }
      >
        {/* Above the shell's routes: playback goes on while the listener moves between screens. */}
        <PlayerProvider>
          <PlaybackFollowers />
          <AppShell />
        </PlayerProvider>
      </RequireSignedIn>
    ),
    children: [
      { index: true, handle: screens.home, element: <HomePage /> },
      screen('browse', screens.browse, BrowsePage),
      screen('podcasts', screens.podcasts, PodcastsPage),
      screen('search', screens.search, SearchPage),
      screen('playlists', screens.library, PlaylistsPage),
      screen('playlist/:id', screens.playlist, PlaylistPage),
      // Share links (features/sharing): a song's page opens signed out too.
      screen('song/:id', screens.song, SongPage),
      screen('show/:id', screens.podcasts, ShowLinkPage),
      screen('episode/:id', screens.podcasts, EpisodeLinkPage),
      screen('liked', screens.liked, LikedSongsPage),
      screen('recently-played', screens.recentlyPlayed, RecentlyPlayedPage),
      screen('downloads', screens.downloads, DownloadsPage),
      screen('stats', screens.stats, StatsPage),
      screen('recommendations', screens.recommendations, RecommendationsPage),
      screen('premium', screens.premium, PremiumPage),
      screen('premium/checkout', screens.premiumCheckout, CheckoutPage),
      screen('premium/manage', screens.premiumManage, ManageSubscriptionPage),
      screen('tips/checkout', screens.tipCheckout, TipCheckoutPage),
      screen('profile', screens.profile, ProfilePage),
      screen('profile/:userId', screens.userProfile, ProfilePage),
      screen('following', screens.following, FollowingPage),
      screen('notifications', screens.notifications, NotificationsPage),
      screen('ai-music', screens.aiMusic, AiMusicPage),
      screen('settings/security', screens.security, SecurityPage),
      screen('settings/scrobbling', screens.scrobbling, ScrobblingPage),
      {
        element: <RequireRole role="artist" />,
        children: [
          screen('upload', screens.upload, UploadPage),
          screen('dashboard', screens.dashboard, DashboardPage),
          screen('withdrawal-settings', screens.withdrawalSettings, WithdrawalSettingsPage),
        ],
      },
      {
        element: <RequireRole role="artist" deniedMessage="Only artists can upload podcasts" />,
        children: [screen('podcast-upload', screens.podcastUpload, PodcastUploadPage)],
      },
      {
        element: <RequireRole role="artist" deniedMessage="Artist access only" />,
        children: [screen('artist-revenue', screens.artistRevenue, ArtistRevenuePage)],
      },
      {
        element: <RequireRole role="admin" deniedMessage="Admin access only" />,
        children: [
          screen('admin/withdrawals', screens.adminWithdrawals, AdminWithdrawalsPage),
          screen('admin/ads', screens.adminAds, AdminAdsPage),
          screen('admin/revenue', screens.adminRevenue, AdminRevenuePage),
        ],
      },
      {
        element: <RequireRole role="admin" deniedMessage="Admin access required" />,
        children: [
          screen('admin/artist-approval', screens.adminArtistApproval, AdminArtistApprovalPage),
        ],
      },
    ],
  },
  {
    path: '*',
    element: (
      <Suspense fallback={<FullPageLoading />}>
        <NotFoundPage />
      </Suspense>
    ),
  },
];

const router = createBrowserRouter(routes);

function screensIn(node: ReactNode): Screen[] {
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  const own = typeof node.type === 'function' && 'load' in node.type ? [node.type as Screen] : [];
  return [...own, ...Children.toArray(node.props.children).flatMap(screensIn)];
}

/** Starts loading the screens `pathname` shows, so they are in when the guards let them render. */
export function preloadScreen(pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? [])
    for (const screen of screensIn(match.route.element)) void screen.load().catch(() => {});
}

/** What features do as the player plays (their caches follow it), inside the PlayerProvider. */
function PlaybackFollowers() {
  useEpisodeProgressCache();
  return null;
}

function SessionKeeper() {
  useSessionKeeper();
  return null;
}

export function App() {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionKeeper />
        <RouterProvider router={router} />
        <Toaster
          visibleToasts={1}
          theme="dark"
          richColors
          closeButton
          position="bottom-right"
          // Above the player bar while it is on screen (styles.css sets these then).
          offset={{ bottom: 'var(--toast-offset-bottom, 24px)' }}
          mobileOffset={{ bottom: 'var(--toast-offset-bottom-mobile, 16px)' }}
          toastOptions={{ duration: 5000 }}
        />
      </QueryClientProvider>
    </StrictMode>
  );
}
