// How episodes read in the list: their length, the listener's state in each (spec: played,
// in progress with the time left, nothing when new) and their date. Pure.
import type { EpisodeProgressDto } from '@/contracts/podcasts.contract.ts';

/** A length for people: 45 s, 12 min, 1 h 5 min; null when unknown. */
export function formatLength(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return null;
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

export type EpisodeState =
  | { kind: 'new' }
  | { kind: 'played' }
  | { kind: 'in-progress'; left: string | null; fraction: number | null };

/** Played once completed; in progress once started (with what is left); else new. */
export function episodeState(
  progress: EpisodeProgressDto | null,
  duration: number | null,
): EpisodeState {
  if (!progress) return { kind: 'new' };
  if (progress.completed) return { kind: 'played' };
  if (!(progress.position > 0)) return { kind: 'new' };
  if (duration === null || !(duration > 0))
    return { kind: 'in-progress', left: null, fraction: null };
  const left = Math.max(duration - progress.position, 0);
  return {
    kind: 'in-progress',
    left: `${formatLength(left)} left`,
    fraction: Math.min(progress.position / duration, 1),
  };
}

/** The publication day, e.g. 'Mar 4, 2025' (the browser's language). */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
