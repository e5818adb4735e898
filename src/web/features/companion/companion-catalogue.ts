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
  // The listener's own recommendations (plays, likes, follows), kept to a genre when asked.
  recommendations: async ({ genre, limit }) =>
    (await api(recommendationsApi.list, { query: genre ? { genre, limit } : { limit } })).songs,
  profile: (userId) => api(socialApi.profile, { params: { userId } }),
  artistSongs: async (userId, limit) =>
    (await api(socialApi.profileSongs, { params: { userId }, query: { limit } })).songs,
};
