// Home's two sections (spec §2 Recent Tracks / Popular Tracks). A failed load says so, with a
// way to ask again, instead of reading as a catalogue with no tracks.
import { LoadFailed } from '@/web/components/page-status.tsx';
import { SongSection } from './song-section.tsx';
import type { HomeSongs } from './use-home-songs.ts';

export const HOME_LOAD_FAILED = 'Failed to load tracks. Check your connection and retry.';

export function HomeTracks({
  data,
  isPending,
  isError,
  retrying,
  onRetry,
}: {
  data: HomeSongs | undefined;
  isPending: boolean;
  isError: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  if (isError && !data)
    return (
      <div className="mt-10">
        <LoadFailed
          message={HOME_LOAD_FAILED}
          retryLabel="Retry"
          retrying={retrying}
          onRetry={onRetry}
        />
      </div>
    );
  return (
    <>
      <SongSection
        id="recent-tracks"
        title="Recent Tracks"
        songs={data?.recent ?? []}
        loading={isPending}
      />
      <SongSection
        id="popular-tracks"
        title="Popular Tracks"
        songs={data?.popular ?? []}
        loading={isPending}
      />
    </>
  );
}
