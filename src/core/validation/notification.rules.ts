// Notifications (docs/decisions/0021; spec §2 Notifications, §4 Notification, §8 messages, §9
// constants), shared by the bell, the /notifications screen and the server.

/**
 * Every kind the server creates: a follow, a release (to each follower), an artist request's
 * decision, a withdrawal's outcome; 'system' is for operator announcements.
 */
export const NOTIFICATION_TYPES = [
  'new_follower',
  'new_release',
  'artist_approved',
  'artist_rejected',
  'withdrawal_completed',
  'withdrawal_rejected',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const notificationLimits = {
  /** Spec §9: notifications fetched and kept in the menu and on the screen. */
  kept: 10,
  /** Spec §9: the badge shows the count up to this, then '9+'. */
  badgeMax: 9,
  /** Spec §9: skeleton rows of the screen while it loads. */
  skeletons: 5,
  /** Stored lengths (the table's CHECKs): longer texts are cut, never refused. */
  titleMax: 200,
  messageMax: 2000,
} as const;

export const notificationMessages = {
  loadFailed: 'Failed to load notifications',
  markAllFailed: 'Failed to mark all as read',
  deleteFailed: 'Failed to delete notification',
  /** Spec §8: a failed single mark-as-read is only logged, never shown. */
  markReadFailed: 'Failed to mark notification as read',
  allMarkedRead: 'All notifications marked as read',
  deleted: 'Notification deleted',
  notFound: 'Notification not found',
  markAll: 'Mark all as read',
  viewAll: 'View all notifications',
  emptyUnread: "You're all caught up!",
  emptyAll: "You'll see notifications here when you get them.",
  /** The menu when nothing has arrived yet. */
  emptyMenu: 'No notifications yet',
} as const;

/** The bell's badge: the count, or '9+' above 9; never below 0 (spec §4). */
export function badgeText(unread: number): string {
  return unread > notificationLimits.badgeMax
    ? `${notificationLimits.badgeMax}+`
    : String(Math.max(0, Math.floor(unread)));
}

/** Unread count after `n` were read or removed: never below 0 (spec §4). */
export function lessUnread(unread: number, n = 1): number {
  return Math.max(0, unread - n);
}

/**
 * A link a notification may carry: an in-app path (one leading slash). Anything else (an
 * absolute URL, `//host`, `javascript:`) is dropped, so a click never leaves the app.
 */
export function inAppLink(link: string | null | undefined): string | null {
  if (!link || !/^\/(?!\/)/.test(link) || /[\s\\]/.test(link) || link.length > 500) return null;
  return link;
}

/** Cuts `text` to `max` characters (code points), ending with '…' when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export type NotificationNotice = { title: string; message: string; link: string | null };

/**
 * What the server's notifications say; new_follower's words are the social module's
 * (profile.rules.ts).
 */
export const notificationNotices = {
  newRelease: (release: {
    artistId: string;
    artist: string | null;
    title: string;
    kind: 'song' | 'episode';
  }): NotificationNotice => ({
    title: release.kind === 'song' ? 'New release' : 'New episode',
    message:
      release.kind === 'song'
        ? `${release.artist?.trim() || 'An artist you follow'} released "${release.title}"`
        : `${release.artist?.trim() || 'An artist you follow'} published "${release.title}"`,
    link: `/profile/${release.artistId}`,
  }),
  artistApproved: (): NotificationNotice => ({
    title: 'Artist request approved',
    message: 'You can now upload music and podcasts.',
    link: '/upload',
  }),
  artistRejected: (): NotificationNotice => ({
    title: 'Artist request declined',
    message: 'An admin declined your artist request. You can keep listening as before.',
    link: null,
  }),
} as const;
