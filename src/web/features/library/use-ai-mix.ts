// The listener's AI mix (docs/decisions/0032): a playlist the server fills with recommended
// songs. 'Generate AI Playlist' (home, recommendations) and the mix's own 'Regenerate' call
// the same mutation; the playlist's queries are refreshed with its new tracks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { recommendationsApi } from '@/contracts/api/recommendations.api.ts';
import type { AiMixDto } from '@/contracts/recommendations.contract.ts';
import { recommendationMessages } from '@/core/validation/recommendation.rules.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { playlistKeys, PLAYLIST_TOAST } from './use-playlists.ts';

export const aiMixKeys = { current: ['me', 'ai-mix'] as const };

/** Which of the listener's playlists is their AI mix (null: none yet). */
export function useCurrentAiMix() {
  const signedIn = useSession().status === 'signed-in';
  return useQuery({
    queryKey: aiMixKeys.current,
    queryFn: ({ signal }) => api(recommendationsApi.currentMix, { signal }),
    select: (data) => data.playlist_id,
    enabled: signedIn,
  });
}

/** Makes the AI mix, or gives it new songs; a failure is toasted (spec §8's words). */
export function useGenerateAiMix(options: { onGenerated?: (mix: AiMixDto) => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(recommendationsApi.generateMix),
    onSuccess: async (mix) => {
      client.setQueryData(aiMixKeys.current, { playlist_id: mix.playlist_id });
      await Promise.all([
        client.invalidateQueries({ queryKey: playlistKeys.mine }),
        client.invalidateQueries({ queryKey: playlistKeys.detail(mix.playlist_id) }),
      ]);
      toast.success(recommendationMessages.mixCreated, {
        id: PLAYLIST_TOAST,
        description: mix.title,
      });
      options.onGenerated?.(mix);
    },
    onError: (e) =>
      toast.error(recommendationMessages.mixFailed, {
        id: PLAYLIST_TOAST,
        description: errorMessage(e),
      }),
  });
}
