// Spec §2 Playlist (/playlist/{id}): the header, Play All and the tracks in position order.
// The owner also edits, reorders, removes tracks and deletes it; anyone else signed in sees
// a public playlist read-only, and a missing or private one is 'Playlist not found'.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Globe, ListMusic, Loader2, Lock, Pencil, Play, Sparkles, Trash2 } from 'lucide-react';
import type { PlaylistDetail } from '@/contracts/playlists.contract.ts';
import { playlistMessages } from '@/core/validation/playlist.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { SongRowsSkeleton } from '@/web/components/song/song-row.tsx';
import { songToPlayable } from '@/web/player/playable.ts';
import { usePlayerControls, type PlayerItem } from '@/web/player/use-player.ts';
import { DownloadPlaylistButton } from '@/web/features/downloads/index.ts';
import { trackCountLabel } from './add-to-playlist-dialog.tsx';
import { DeletePlaylistDialog } from './delete-playlist-dialog.tsx';
import { PlaylistEditDialog } from './playlist-edit-dialog.tsx';
import { PlaylistTracks } from './playlist-tracks.tsx';
import { isNotFound, isPlaylistId, usePlaylist } from './use-playlists.ts';
import { useCurrentAiMix, useGenerateAiMix } from './use-ai-mix.ts';

const SKELETON_ROWS = 6;

/** '42 min', '1 h 5 min': how long the whole playlist plays. */
function totalLength(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

export default function PlaylistPage() {
  const { id } = useParams();
  const valid = isPlaylistId(id);
  const { data, isPending, isError, error, isFetching, refetch } = usePlaylist(id);

  if (!valid || (isError && isNotFound(error))) return <NotFound />;
  return (
    <section aria-labelledby="playlist-heading" aria-busy={isPending} className="mx-auto max-w-4xl">
      {isPending ? (
        <>
          <h2 id="playlist-heading" className="sr-only">
            Loading playlist
          </h2>
          <div className="mb-6 flex items-end gap-5" aria-hidden="true">
            <Skeleton className="size-32 rounded-xl sm:size-40" />
            <div className="flex-1 space-y-3">
              <Skeleton className="h-3 w-24" />
              <Skeleton className="h-8 w-2/3" />
              <Skeleton className="h-4 w-1/3" />
            </div>
          </div>
          <SongRowsSkeleton rows={SKELETON_ROWS} testId="playlist-loading" />
        </>
      ) : isError ? (
        <>
          <h2 id="playlist-heading" className="sr-only">
            Playlist
          </h2>
          <LoadFailed
            message={playlistMessages.loadFailed}
            retrying={isFetching}
            onRetry={() => void refetch()}
          />
        </>
      ) : (
        <Playlist detail={data} />
      )}
    </section>
  );
}

function NotFound() {
  return (
    <section
      aria-labelledby="playlist-heading"
      className="mx-auto flex max-w-4xl flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center"
    >
      <ListMusic className="size-8 text-muted-foreground" aria-hidden="true" />
      <h2 id="playlist-heading" className="text-lg font-semibold">
        {playlistMessages.notFound}
      </h2>
      <p className="text-sm text-muted-foreground">
        It may have been deleted, or its owner keeps it private.
      </p>
      <Button asChild variant="outline">
        <Link to="/playlists">Back to Your Library</Link>
      </Button>
    </section>
  );
}

/** On the listener's AI mix: new recommended songs in place of its tracks (ADR 0032). */
function RegenerateMix({ playlistId }: { playlistId: string }) {
  const { data: mixId } = useCurrentAiMix();
  const regenerate = useGenerateAiMix();
  if (mixId !== playlistId) return null;
  const pending = regenerate.isPending;
  return (
    <Button
      variant="outline"
      disabled={pending}
      aria-busy={pending}
      onClick={() => regenerate.mutate()}
    >
      {pending ? (
        <Loader2 className="animate-spin" aria-hidden="true" />
      ) : (
        <Sparkles aria-hidden="true" />
      )}
      Regenerate
    </Button>
  );
}

function Playlist({ detail }: { detail: PlaylistDetail }) {
  const { playlist, tracks } = detail;
  const { load, addToQueue } = usePlayerControls();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const playables = tracks.flatMap((t): PlayerItem[] => {
    const p = songToPlayable(t.song);
    return p ? [p] : [];
  });
  const seconds = tracks.reduce((sum, t) => sum + (t.song.duration ?? 0), 0);

  // In position order: the first plays now, the rest wait in the queue.
  const playAll = () => {
    const [first, ...rest] = playables;
    if (!first) return;
    load(first);
    if (rest.length > 0) addToQueue(rest);
  };

  return (
    <>
      <header className="mb-6 flex flex-col gap-5 sm:flex-row sm:items-end">
        <CoverArt
          src={playlist.cover_art_url}
          lazy={false}
          className="size-40 shrink-0 rounded-xl bg-muted object-cover shadow-lg"
        />
        <div className="min-w-0 flex-1 space-y-2">
          <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
            {playlist.is_public ? (
              <Globe className="size-3.5" aria-hidden="true" />
            ) : (
              <Lock className="size-3.5" aria-hidden="true" />
            )}
            {playlist.is_public ? 'Public playlist' : 'Private playlist'}
          </p>
          <h2
            id="playlist-heading"
            className="text-2xl font-bold tracking-tight break-words md:text-3xl"
          >
            {playlist.title}
          </h2>
          {playlist.description && (
            <p className="text-sm whitespace-pre-line text-muted-foreground">
              {playlist.description}
            </p>
          )}
          <p className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground">
              {playlist.is_owner ? 'You' : (playlist.owner_display_name ?? 'Unknown')}
            </span>
            {` · ${trackCountLabel(tracks.length)}`}
            {seconds > 0 && ` · ${totalLength(seconds)}`}
          </p>
        </div>
      </header>

      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Button variant="brand" disabled={playables.length === 0} onClick={playAll}>
          <Play className="fill-current" aria-hidden="true" />
          Play All
        </Button>
        {/* A private playlist has no link to give: its page answers nobody but the owner. */}
        {playlist.is_public && (
          <ShareButton kind="playlist" id={playlist.id} title={playlist.title} />
        )}
        <DownloadPlaylistButton songs={tracks.map((t) => t.song)} title={playlist.title} />
        {playlist.is_owner && (
          <>
            <RegenerateMix playlistId={playlist.id} />
            <Button variant="outline" onClick={() => setDialog('edit')}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              variant="ghost"
              className="text-red-400 hover:text-red-300"
              onClick={() => setDialog('delete')}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </>
        )}
      </div>

      {tracks.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <ListMusic className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">This playlist is empty</p>
          {playlist.is_owner && (
            <p className="text-sm">
              Find songs on{' '}
              <Link to="/" className="underline underline-offset-4">
                Home
              </Link>{' '}
              or in{' '}
              <Link to="/search" className="underline underline-offset-4">
                Search
              </Link>{' '}
              and use Add to playlist.
            </p>
          )}
        </div>
      ) : (
        <PlaylistTracks playlistId={playlist.id} tracks={tracks} isOwner={playlist.is_owner} />
      )}

      {playlist.is_owner && (
        <>
          <PlaylistEditDialog
            playlist={playlist}
            open={dialog === 'edit'}
            onOpenChange={(o) => setDialog(o ? 'edit' : null)}
          />
          <DeletePlaylistDialog
            playlist={playlist}
            open={dialog === 'delete'}
            onOpenChange={(o) => setDialog(o ? 'delete' : null)}
          />
        </>
      )}
    </>
  );
}
