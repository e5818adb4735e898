// Spec §2 Liked songs: the listener's liked songs, newest like first, with Play All,
// per-song play, add to queue and unlike.
import { Heart, Play } from 'lucide-react';
import type { LikedSongItem } from '@/contracts/library.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { songToPlayable } from '@/web/player/playable.ts';
import { SongRowsSkeleton, songListClass } from '@/web/components/song/song-row.tsx';
import { usePlayerControls } from '@/web/player/use-player.ts';
import type { PlayerItem } from '@/web/player/use-player.ts';
import { LikeButton } from './like-button.tsx';
import { SongRowWithActions } from './song-row-with-actions.tsx';
import { useLikedSongs } from './use-likes.ts';

const SKELETON_ROWS = 6;
function LikedRow({ item }: { item: LikedSongItem }) {
  return (
    <SongRowWithActions
      song={item.song}
      testId="liked-song"
      actions={
        <LikeButton
          songId={item.song.id}
          title={item.song.title}
          unlikeMessage="Song removed from liked songs"
        />
      }
    />
  );
}

export default function LikedSongsPage() {
  const { data: items, isPending, isError, refetch, isFetching } = useLikedSongs();
  const { load, addToQueue } = usePlayerControls();
  const playables = (items ?? []).flatMap((i): PlayerItem[] => {
    const p = songToPlayable(i.song);
    return p ? [p] : [];
  });

  const playAll = () => {
    const [first, ...rest] = playables;
    if (!first) return;
    load(first);
    if (rest.length > 0) addToQueue(rest);
  };

  return (
    <section aria-labelledby="liked-heading" aria-busy={isPending} className="mx-auto max-w-4xl">
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id="liked-heading" className="text-xl font-bold tracking-tight">
          {items && items.length > 0
            ? `${items.length} liked ${items.length === 1 ? 'song' : 'songs'}`
            : 'Liked songs'}
        </h2>
        {items && items.length > 0 && (
          <Button
            className="brand-gradient text-white hover:opacity-90"
            disabled={playables.length === 0}
            onClick={playAll}
          >
            <Play className="fill-current" aria-hidden="true" />
            Play All
          </Button>
        )}
      </div>
      {isPending ? (
        <SongRowsSkeleton rows={SKELETON_ROWS} testId="liked-songs-loading" />
      ) : isError ? (
        <LoadFailed
          message="Failed to load liked songs"
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Heart className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No liked songs yet</p>
          <p className="text-sm">Songs you like will show up here, newest first.</p>
        </div>
      ) : (
        <ol className={songListClass}>
          {items.map((item) => (
            <LikedRow key={item.song.id} item={item} />
          ))}
        </ol>
      )}
    </section>
  );
}
