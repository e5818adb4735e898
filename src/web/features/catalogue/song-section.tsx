import type { ReactNode } from 'react';
import { Music } from 'lucide-react';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { SongCardSkeleton, songGridClass } from '@/web/components/song/song-card.tsx';
import { SongCardWithActions } from './song-card-with-actions.tsx';

const SKELETONS = 6;

/** A titled song grid (spec §2): 6 skeletons while loading, 'No tracks available yet' if empty. */
export function SongSection({
  id,
  title,
  songs,
  loading,
  action,
  className = 'mt-10',
}: {
  id: string;
  title: string;
  songs: SongDto[];
  loading: boolean;
  /** Beside the heading, e.g. a link back. */
  action?: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} aria-busy={loading} className={className}>
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id={id} className="text-xl font-bold tracking-tight md:text-2xl">
          {title}
        </h2>
        {action}
      </div>
      {loading ? (
        <div className={songGridClass} data-testid={`${id}-loading`}>
          {Array.from({ length: SKELETONS }, (_, i) => (
            <SongCardSkeleton key={i} />
          ))}
        </div>
      ) : songs.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Music className="size-8" aria-hidden="true" />
          <p>No tracks available yet</p>
        </div>
      ) : (
        <ul className={songGridClass}>
          {songs.map((song) => (
            <li key={song.id}>
              <SongCardWithActions song={song} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
