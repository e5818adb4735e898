// Home's data in one place: the songs endpoint arrives in a later issue, so any failure
// (404 today) reads as "no tracks yet" instead of an error.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/web/lib/api-client.ts';

/** Spec §3 songs, as the home screen needs them. Move to a songs contract when it exists. */
export interface Song {
  id: string;
  artist_id: string;
  artist?: string | null;
  title: string;
  genre?: string | null;
  cover_art_url?: string | null;
  file_url?: string | null;
  preview_url?: string | null;
  source?: string | null;
  duration?: number | null;
  play_count?: number;
  created_at?: string;
}

export interface HomeSongs {
  recent: Song[];
  popular: Song[];
}

const PER_SECTION = 6;

const byNewest = (a: Song, b: Song) => (b.created_at ?? '').localeCompare(a.created_at ?? '');
const byPlays = (a: Song, b: Song) => (b.play_count ?? 0) - (a.play_count ?? 0);

/** Accepts `{recent, popular}` or a plain list of songs (spec §9: home fetches 12). */
export function toHomeSongs(data: unknown): HomeSongs {
  if (Array.isArray(data)) {
    const songs = data as Song[];
    return {
      recent: [...songs].sort(byNewest).slice(0, PER_SECTION),
      popular: [...songs].sort(byPlays).slice(0, PER_SECTION),
    };
  }
  const d = (data ?? {}) as Partial<HomeSongs>;
  return {
    recent: Array.isArray(d.recent) ? d.recent.slice(0, PER_SECTION) : [],
    popular: Array.isArray(d.popular) ? d.popular.slice(0, PER_SECTION) : [],
  };
}

export function useHomeSongs() {
  return useQuery({
    queryKey: ['songs', 'home'],
    queryFn: async ({ signal }): Promise<HomeSongs> => {
      try {
        return toHomeSongs(await api.get<unknown>('/songs/home', { signal }));
      } catch {
        return { recent: [], popular: [] };
      }
    },
    staleTime: 30_000,
  });
}
