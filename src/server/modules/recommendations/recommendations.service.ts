import type {
  AiMixDto,
  CurrentAiMixDto,
  RecommendationsDto,
} from '../../../contracts/recommendations.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  dominantGenre,
  rankCandidates,
} from '../../../core/recommendations/recommendation-score.ts';
import {
  aiMixTitle,
  recommendationLimits as L,
  recommendationMessages,
} from '../../../core/validation/recommendation.rules.ts';
import type { LibraryModule } from '../library/library.module.ts';
import type { RecommendationsRepository } from './recommendations.repository.ts';

export type RecommendationsService = ReturnType<typeof createRecommendationsService>;

const MIX_DESCRIPTION = 'Made for you from your listening, likes and follows.';

/**
 * The recommender (docs/decisions/0032): candidates and their signals from SQL, blended and
 * ranked by the pure scorer; and the listener's AI mix made of them through the library.
 */
export function createRecommendationsService({
  repository,
  library,
  songsByIds,
  clock,
}: {
  repository: RecommendationsRepository;
  library: Pick<
    LibraryModule,
    'createPlaylistWithSongs' | 'replacePlaylistSongs' | 'playlistSongIds'
  >;
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
  clock: Pick<Clock, 'now'>;
}) {
  /** Song ids, best first; `avoid` goes last (a regenerated mix prefers new songs). */
  async function rankedIds(
    userId: string,
    { limit, genre, avoid = [] }: { limit: number; genre: string | null; avoid?: string[] },
  ) {
    const { personal, mainstream, candidates } = await repository.candidates(userId, {
      genre: genre && genre.trim() !== '' ? genre : null,
      now: clock.now(),
    });
    const ids = rankCandidates(candidates, {
      limit: limit + avoid.length,
      personal,
      perArtist: L.perArtist,
      mainstream,
    });
    const skip = new Set(avoid);
    const fresh = ids.filter((id) => !skip.has(id));
    return { personal, ids: [...fresh, ...ids.filter((id) => skip.has(id))].slice(0, limit) };
  }

  return {
    async recommend(
      userId: string,
      { limit, genre }: { limit: number; genre?: string | undefined },
    ): Promise<RecommendationsDto> {
      const { personal, ids } = await rankedIds(userId, { limit, genre: genre ?? null });
      return { personal, songs: await songsByIds(ids) };
    },

    /**
     * 'Generate AI Playlist': 20 recommended songs in the listener's AI mix. The first call
     * makes a private playlist; each later one gives that same playlist new tracks (songs
     * of the previous mix only when nothing else is left) and today's name, so the library
     * holds one AI mix rather than one per click. A mix the listener deleted is made anew.
     */
    async generateMix(userId: string): Promise<AiMixDto> {
      const previous = await repository.currentMix(userId);
      const avoid = previous ? ((await library.playlistSongIds(previous, userId)) ?? []) : [];
      const { ids } = await rankedIds(userId, { limit: L.mixSize, genre: null, avoid });
      if (ids.length === 0) throw new AppError(ErrorCode.notFound, recommendationMessages.noSongs);
      const songs = await songsByIds(ids);
      const now = clock.now();
      const title = aiMixTitle(dominantGenre(songs.map((s) => s.genre)), now);
      let created = false;
      const playlistId = await repository.withMix(userId, now, async (tx, current) => {
        if (
          current &&
          (await library.replacePlaylistSongs(current, userId, { title, songIds: ids }, tx))
        )
          return current;
        created = true;
        return library.createPlaylistWithSongs(
          { userId, title, description: MIX_DESCRIPTION, isPublic: false },
          ids,
          tx,
        );
      });
      return { playlist_id: playlistId, title, track_count: ids.length, created };
    },

    async currentMix(userId: string): Promise<CurrentAiMixDto> {
      return { playlist_id: await repository.currentMix(userId) };
    },
  };
}
