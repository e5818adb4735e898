// The AI Music Creator's data (spec §2, §7 generate-ai-content): the user's recent generations
// and a generation, whose answer goes on top of that list at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { aiApi } from '@/contracts/api/ai.api.ts';
import type { GenerateBody, GenerationDto, GenerationList } from '@/contracts/ai.contract.ts';
import { aiMessages, HISTORY_LIMIT } from '@/core/validation/ai.rules.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';

export const aiKeys = { generations: ['me', 'ai-generations'] as const };

export function useGenerations() {
  return useQuery({
    queryKey: aiKeys.generations,
    queryFn: ({ signal }) => api(aiApi.generations, { signal }),
  });
}

export function useGenerate(onGenerated: (generation: GenerationDto) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GenerateBody) => api(aiApi.generate, { body }),
    onSuccess: (generation) => {
      queryClient.setQueryData<GenerationList>(aiKeys.generations, (list) =>
        list ? { generations: [generation, ...list.generations].slice(0, HISTORY_LIMIT) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: aiKeys.generations });
      toast.success(aiMessages.generated);
      onGenerated(generation);
    },
    // Spec §8: 'Generation failed'; a refusal's own words (the hourly limit) beneath it.
    onError: (err) => toast.error(aiMessages.failed, { description: errorMessage(err, null) }),
  });
}
