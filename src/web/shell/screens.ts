// Titles and blurbs of every screen of spec §2, and the sidebar groups.
import type { LucideIcon } from 'lucide-react';
import {
  Bell,
  HandCoins,
  Calculator,
  ChartColumn,
  Compass,
  Crown,
  DollarSign,
  Download,
  Heart,
  History,
  House,
  LayoutDashboard,
  Megaphone,
  Library,
  ListMusic,
  ListPlus,
  Podcast,
  Radio,
  Search,
  ShieldCheck,
  Sparkles,
  Upload,
  User,
  Users,
  Wallet,
  Mic,
  Music,
} from 'lucide-react';

export interface ScreenHandle {
  title: string;
  description?: string;
  icon?: LucideIcon;
  /** Where a signed-out visitor is sent (spec §2: /auth, except the approval page). */
  signedOutTo?: string;
  /** Open signed out too (a shared song's page): the visitor sees it without the shell. */
  public?: boolean;
}

export const screens = {
  home: { title: 'Home', icon: House },
  browse: {
    title: 'Browse',
    icon: Compass,
    description: 'Trending songs, new releases and genres to explore.',
  },
  podcasts: {
    title: 'Podcasts',
    icon: Podcast,
    description: 'Shows and episodes from creators on Canto.',
  },
  search: { title: 'Search', icon: Search, description: 'Find songs and podcasts.' },
  library: {
    title: 'Your Library',
    icon: Library,
    description: 'Playlists you create will appear here.',
  },
  playlist: { title: 'Playlist', icon: ListMusic, description: 'Tracks in this playlist.' },
  song: { title: 'Song', icon: Music, public: true },
  liked: { title: 'Liked Songs', icon: Heart, description: 'Songs you like will appear here.' },
  recentlyPlayed: {
    title: 'Recently Played',
    icon: History,
    description: 'Your last 20 plays will appear here.',
  },
  downloads: {
    title: 'Downloads',
    icon: Download,
    description: 'Songs and episodes stored on this device to play offline (Premium).',
  },
  stats: {
    title: 'Your Listening Stats',
    icon: ChartColumn,
    description: 'Streams, hours listened, top artists and genres.',
  },
  premium: {
    title: 'Premium',
    icon: Crown,
    description:
      'Ad-free listening, unlimited skips, offline downloads and the AI music companion.',
  },
  premiumCheckout: {
    title: 'Checkout',
    icon: Crown,
    description: 'Test-mode checkout: no card is charged.',
  },
  premiumManage: {
    title: 'Manage Subscription',
    icon: Crown,
    description: 'Your premium plan and its renewal.',
  },
  tipCheckout: {
    title: 'Checkout',
    icon: HandCoins,
    description: 'Test-mode checkout for a tip: no card is charged.',
  },
  profile: { title: 'Profile', icon: User, description: 'Your public profile on Canto.' },
  userProfile: { title: 'Profile', icon: User, description: 'Songs and stats of this listener.' },
  following: {
    title: 'Following',
    icon: Users,
    description: 'Artists you follow will appear here.',
  },
  notifications: {
    title: 'Notifications',
    icon: Bell,
    description: 'Follows, new releases and account updates.',
  },
  recommendations: {
    title: 'Recommended for you',
    icon: Sparkles,
    description: 'Songs picked from what you play, like and follow.',
  },
  aiMusic: {
    title: 'AI Music Creator',
    icon: Sparkles,
    description: 'Generate lyrics or cover art from a prompt.',
  },
  dashboard: {
    title: 'Artist Dashboard',
    icon: LayoutDashboard,
    description: 'Streams, listeners and estimated revenue for your music.',
  },
  upload: { title: 'Upload Music', icon: Upload, description: 'Publish a new song.' },
  podcastUpload: {
    title: 'Upload Podcast',
    icon: Mic,
    description: 'Publish an episode or manage your shows.',
  },
  artistRevenue: {
    title: 'Revenue',
    icon: DollarSign,
    description: 'Monthly earnings from premium listening and ads.',
  },
  withdrawalSettings: {
    title: 'Withdrawal Settings',
    icon: Wallet,
    description: 'Request payouts of your balance.',
  },
  adminWithdrawals: {
    title: 'Withdrawal Management',
    icon: Wallet,
    description: 'Review and process artist payout requests.',
  },
  adminRevenue: {
    title: 'Revenue Calculation',
    icon: Calculator,
    description: "Calculate artists' revenue for the current month.",
  },
  adminAds: {
    title: 'Ads',
    icon: Megaphone,
    description: 'The ad inventory shown to listeners without premium.',
  },
  adminArtistApproval: { title: 'Artist Approval', icon: ShieldCheck, signedOutTo: '/' },
  security: {
    title: 'Security',
    icon: ShieldCheck,
    description: 'Two-step verification for your account.',
  },
  scrobbling: {
    title: 'Scrobbling',
    icon: Radio,
    description: 'Your plays on ListenBrainz and Last.fm.',
  },
} satisfies Record<string, ScreenHandle>;

/** A page to go to, or an action the sidebar performs where the listener is. */
export type NavEntry = { label: string; icon: LucideIcon } & (
  | { to: string; action?: undefined }
  | {
      /** Create Playlist opens its dialog over any screen: it is never "the current page". */
      action: 'create-playlist';
      to?: undefined;
    }
);

export interface NavGroup {
  id: string;
  label: string;
  entries: NavEntry[];
  artistOnly?: boolean;
  /** Not in spec §2's sidebar: admins would otherwise reach their screens only by URL. */
  adminOnly?: boolean;
}

export const navGroups: NavGroup[] = [
  {
    id: 'main',
    label: 'Main',
    entries: [
      { label: 'Home', to: '/', icon: House },
      { label: 'Browse', to: '/browse', icon: Compass },
      { label: 'Podcasts', to: '/podcasts', icon: Podcast },
      { label: 'Search', to: '/search', icon: Search },
      { label: 'Your Library', to: '/playlists', icon: Library },
      { label: 'Premium', to: '/premium', icon: Crown },
    ],
  },
  {
    id: 'personal',
    label: 'Personal',
    entries: [
      { label: 'Profile', to: '/profile', icon: User },
      { label: 'Following', to: '/following', icon: Users },
      { label: 'AI Music', to: '/ai-music', icon: Sparkles },
      { label: 'Create Playlist', icon: ListPlus, action: 'create-playlist' },
      { label: 'Liked Songs', to: '/liked', icon: Heart },
      { label: 'Recently Played', to: '/recently-played', icon: History },
      { label: 'Downloads', to: '/downloads', icon: Download },
      { label: 'Your Stats', to: '/stats', icon: ChartColumn },
    ],
  },
  {
    id: 'artist',
    label: 'Artist',
    artistOnly: true,
    entries: [
      { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
      { label: 'Revenue', to: '/artist-revenue', icon: DollarSign },
    ],
  },
  {
    id: 'admin',
    label: 'Admin',
    adminOnly: true,
    entries: [
      { label: 'Artist Approval', to: '/admin/artist-approval', icon: ShieldCheck },
      { label: 'Withdrawals', to: '/admin/withdrawals', icon: Wallet },
      { label: 'Revenue Calculation', to: '/admin/revenue', icon: Calculator },
      { label: 'Ads', to: '/admin/ads', icon: Megaphone },
    ],
  },
];
