// The songs and artists the companion's tools read, through the same API entries the screens
// call, with the listener's own session.
import { searchApi } from '@/contracts/api/search.api.ts';
import { socialApi } from '@/contracts/api/social.api.ts';
import { songsApi } from '@/contracts/api/songs.api.ts';
import { api } from '@/web/lib/api-client.ts';
import type { CompanionCatalogue } from './companion-tools.ts';
import { fetchRecommendations } from './fetch-recommendations.ts';

export const catalogue: CompanionCatalogue = {
  song: (id) => api(songsApi.get, { params: { id } }),
  search: async (q, limit) => (await api(searchApi.search, { query: { q, limit } })).songs,
  recommendations: fetchRecommendations,
  profile: (userId) => api(socialApi.profile, { params: { userId } }),
  artistSongs: async (userId, limit) =>
    (await api(socialApi.profileSongs, { params: { userId }, query: { limit } })).songs,
};
