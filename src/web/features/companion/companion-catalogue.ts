// The songs and artists the companion's tools read, through the same API entries the screens
// call, with the listener's own session.
import { recommendationsApi } from '@/contracts/api/recommendations.api.ts';
import { searchApi } from '@/contracts/api/search.api.ts';
import { socialApi } from '@/contracts/api/social.api.ts';
import { songsApi } from '@/contracts/api/songs.api.ts';
import { api } from '@/web/lib/api-client.ts';
import type { CompanionCatalogue } from './companion-tools.ts';

export const catalogue: CompanionCatalogue = {
  song: (id) => api(songsApi.get, { params: { id } }),
  search: async (q, limit) => (await api(searchApi.search, { query: { q, limit } })).songs,
  // The listener's own recommendations (plays, likes, follows), kept to a genre when asked;
  // when the genre's only songs were just played (the recommender leaves those out), the
  // genre's songs as Browse lists them, so asking twice still plays something.
  recommendations: async ({ genre, limit }) => {
    const { songs } = await api(recommendationsApi.list, {
      query: genre ? { genre, limit } : { limit },
    });
    if (songs.length > 0 || !genre) return songs;
    return (await api(songsApi.list, { query: { genre, limit } })).songs;
  },
  profile: (userId) => api(socialApi.profile, { params: { userId } }),
  artistSongs: async (userId, limit) =>
    (await api(socialApi.profileSongs, { params: { userId }, query: { limit } })).songs,
};
