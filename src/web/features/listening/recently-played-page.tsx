// Spec §2 Recently played: the listener's last 20 plays of songs and episodes, newest first,
// each playable.
import { History } from 'lucide-react';
import type { RecentlyPlayedItem } from '@/contracts/listening.contract.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { SongRowsSkeleton, songListClass } from '@/web/components/song/song-row.tsx';
import { SongRowWithActions } from '@/web/features/library/index.ts';
import { EpisodeRow } from '@/web/features/podcasts/index.ts';
import { useRecentlyPlayed } from './use-listening.ts';
import { playedAgo, playedAt } from './listening-format.ts';

const SKELETON_ROWS = 6;

function PlayRow({ item, now }: { item: RecentlyPlayedItem; now: number }) {
  if (item.kind === 'episode') return <EpisodeRow episode={item.episode} />;
  return (
    <SongRowWithActions
      song={item.song}
      testId="recently-played-item"
      details={
        <time
          dateTime={item.played_at}
          title={playedAt(item.played_at)}
          className="hidden shrink-0 text-xs text-muted-foreground sm:block"
        >
          {playedAgo(item.played_at, now)}
        </time>
      }
    />
  );
}

export default function RecentlyPlayedPage() {
  const {
    data: items,
    isPending,
    isError,
    refetch,
    isFetching,
    dataUpdatedAt,
  } = useRecentlyPlayed();

  return (
    <section
      aria-labelledby="recently-played-heading"
      aria-busy={isPending}
      className="mx-auto max-w-4xl"
    >
      <h2 id="recently-played-heading" className="mb-4 text-xl font-bold tracking-tight">
        Your last 20 plays
      </h2>
      {isPending ? (
        <SongRowsSkeleton rows={SKELETON_ROWS} testId="recently-played-loading" />
      ) : isError ? (
        <LoadFailed
          message="Failed to load recently played songs"
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <History className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No recently played songs yet</p>
          <p className="text-sm">Songs and episodes you play will show up here, newest first.</p>
        </div>
      ) : (
        <ol className={songListClass}>
          {items.map((item) => (
            // 'Ago' is measured from when the list arrived, so rendering stays pure.
            <PlayRow key={item.play_id} item={item} now={dataUpdatedAt} />
          ))}
        </ol>
      )}
    </section>
  );
}
