// The artist dashboard's windows and lists (spec §2 Artist dashboard, §9); shared by web and
// server; pure.
import { ESTIMATE_TENTHS_OF_CENT_PER_STREAM } from './revenue.rules.ts';

/** Daily streams and unique listeners cover the last 30 UTC days, today included. */
export const DASHBOARD_DAYS = 30;
/** Top songs and top episodes: five each, as the stats' top lists (spec §9). */
export const DASHBOARD_TOP = 5;
/** New followers count over the dashboard's window; the list shows the latest few. */
export const NEW_FOLLOWERS_SHOWN = 5;

/** $0.004 per stream, in whole cents rounded half up (integer arithmetic only). */
export function estimatedRevenueCents(streams: number): number {
  return Math.floor((streams * ESTIMATE_TENTHS_OF_CENT_PER_STREAM + 5) / 10);
}

export const dashboardMessages = {
  loadFailed: 'Failed to load analytics',
  empty: 'No streams yet',
  emptyHint: 'Upload a song or an episode; its plays will show here.',
  noTier: 'No month calculated yet',
} as const;
