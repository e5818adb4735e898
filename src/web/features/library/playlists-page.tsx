// Spec §2 Your Library: a grid of the listener's own playlists, newest first, each opening
// /playlist/{id}, with the Create Playlist dialog.
import { useState } from 'react';
import { Link } from 'react-router';
import { ListMusic, Lock, Plus } from 'lucide-react';
import type { PlaylistSummary } from '@/contracts/playlists.contract.ts';
import { playlistMessages } from '@/core/validation/playlist.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { trackCountLabel } from './add-to-playlist-dialog.tsx';
import { CreatePlaylistDialog } from './create-playlist-dialog.tsx';
import { useMyPlaylists } from './use-playlists.ts';

const SKELETONS = 6;
const gridClass =
  'grid grid-cols-2 gap-3 @lg:grid-cols-3 @3xl:grid-cols-4 @5xl:grid-cols-6 @lg:gap-4';

function PlaylistCard({ playlist }: { playlist: PlaylistSummary }) {
  return (
    <Link
      to={`/playlist/${playlist.id}`}
      data-testid="playlist-card"
      className="group block rounded-xl bg-card/60 p-3 outline-none transition-colors hover:bg-card focus-visible:ring-[3px] focus-visible:ring-ring/70"
    >
      <div className="aspect-square overflow-hidden rounded-lg bg-muted shadow-md">
        <CoverArt
          src={playlist.cover_art_url}
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
      </div>
      <h3 className="mt-3 truncate text-sm font-semibold" title={playlist.title}>
        {playlist.title}
      </h3>
      <p className="flex items-center gap-1 truncate text-xs text-muted-foreground">
        {trackCountLabel(playlist.track_count)}
        {!playlist.is_public && (
          <>
            {' · '}
            <Lock className="size-3" aria-hidden="true" />
            Private
          </>
        )}
      </p>
    </Link>
  );
}

export default function PlaylistsPage() {
  const { data: playlists, isPending, isError, isFetching, refetch } = useMyPlaylists();
  const [creating, setCreating] = useState(false);

  return (
    <section
      aria-labelledby="playlists-heading"
      aria-busy={isPending}
      className="@container mx-auto max-w-6xl"
    >
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id="playlists-heading" className="text-xl font-bold tracking-tight md:text-2xl">
          Your playlists
        </h2>
        <Button variant="brand" onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Create Playlist
        </Button>
      </div>

      {isPending ? (
        <div className={gridClass} aria-hidden="true" data-testid="playlists-loading">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <div key={i} className="rounded-xl bg-card/60 p-3">
              <Skeleton className="aspect-square w-full rounded-lg" />
              <Skeleton className="mt-3 h-4 w-3/4" />
              <Skeleton className="mt-2 h-3 w-1/2" />
            </div>
          ))}
        </div>
      ) : isError ? (
        <LoadFailed
          message={playlistMessages.loadListFailed}
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : playlists.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <ListMusic className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No playlists yet</p>
          <p className="text-sm">
            Create one, then add songs to it with Add to playlist on any song.
          </p>
          <Button variant="outline" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            Create your first playlist
          </Button>
        </div>
      ) : (
        <ul className={gridClass}>
          {playlists.map((p) => (
            <li key={p.id}>
              <PlaylistCard playlist={p} />
            </li>
          ))}
        </ul>
      )}

      <CreatePlaylistDialog open={creating} onOpenChange={setCreating} />
    </section>
  );
}
