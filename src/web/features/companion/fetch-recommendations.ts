// The companion's recommendations, behind one function: the adapter point between the
// get_recommendations tool and the catalogue. Today it reads the songs the screens already
// show: a genre's songs (the Browse-by-Genre tile's list) or, without one, Home's popular and
// recent tracks.
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { api } from '@/web/lib/api-client.ts';

export async function fetchRecommendations({
  genre,
  limit,
}: {
  genre?: string;
  limit: number;
}): Promise<SongDto[]> {
  if (genre) return (await api(songsApi.list, { query: { genre, limit } })).songs;
  const home = await api(songsApi.home);
  const seen = new Set<string>();
  return [...home.popular, ...home.recent]
    .filter((song) => !seen.has(song.id) && seen.add(song.id))
    .slice(0, limit);
}
