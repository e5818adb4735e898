// 'Explore Now' (home banner): songs picked for the listener from their plays, likes and
// follows, each playable; a listener without history gets the most played songs.
import { Sparkles } from 'lucide-react';
import { recommendationMessages } from '@/core/validation/recommendation.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { SongRowsSkeleton, songListClass } from '@/web/components/song/song-row.tsx';
import { SongRowWithActions } from '@/web/features/library/index.ts';
import { GenerateMixButton } from './generate-mix-button.tsx';
import { useRecommendations } from './use-recommendations.ts';

const LIMIT = 30;
const SKELETON_ROWS = 8;

export default function RecommendationsPage() {
  const { data, isPending, isError, isFetching, refetch } = useRecommendations(LIMIT);

  return (
    <section
      aria-labelledby="recommendations-heading"
      aria-busy={isPending}
      className="mx-auto max-w-4xl"
    >
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          {/* The screen's title, 'Recommended for you', is the shell's h1. */}
          <h2 id="recommendations-heading" className="text-xl font-bold tracking-tight">
            {data && !data.personal ? 'Popular on Canto right now' : 'Picked for you'}
          </h2>
          <p className="text-sm text-muted-foreground">
            {data && !data.personal
              ? 'Play a few songs and this list becomes yours.'
              : 'From what you play, like and follow. Songs you just played are left out.'}
          </p>
        </div>
        <GenerateMixButton size="default" variant="brand" />
      </div>
      {isPending ? (
        <SongRowsSkeleton rows={SKELETON_ROWS} testId="recommendations-loading" />
      ) : isError ? (
        <LoadFailed
          message={recommendationMessages.loadFailed}
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : data.songs.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Sparkles className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">{recommendationMessages.noSongs}</p>
          <p className="text-sm">Songs appear here once artists upload music.</p>
        </div>
      ) : (
        <ol className={songListClass} aria-label="Recommended songs">
          {data.songs.map((song) => (
            <SongRowWithActions key={song.id} song={song} testId="recommendation-item" />
          ))}
        </ol>
      )}
    </section>
  );
}
