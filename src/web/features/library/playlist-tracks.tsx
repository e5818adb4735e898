// A playlist's tracks in position order (spec §2 Playlist). The owner reorders them by
// dragging a row's handle or from the keyboard with dnd-kit (focus the handle, Space or
// Enter picks the track up, Up/Down move it one row per press, Space or Enter drops it,
// Escape cancels), and removes them; everyone else sees the list read-only.
import { useMemo } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { X } from 'lucide-react';
import type { PlaylistTrack } from '@/contracts/playlists.contract.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { useSortableAnnouncements } from '@/web/components/ui/sortable-announcements.ts';
import { SortableHandle } from '@/web/components/ui/sortable-handle.tsx';
import { songListClass } from '@/web/components/song/song-row.tsx';
import { LikeButton } from './like-button.tsx';
import { SongRowWithActions } from './song-row-with-actions.tsx';
import { useMoveTrack, useRemoveTrack } from './use-playlists.ts';

const iconButtonClass =
  'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70';

export function PlaylistTracks({
  playlistId,
  tracks,
  isOwner,
}: {
  playlistId: string;
  tracks: readonly PlaylistTrack[];
  isOwner: boolean;
}) {
  if (!isOwner) {
    return (
      <ol aria-label="Tracks" className={songListClass}>
        {tracks.map((track, index) => (
          <SongRowWithActions
            key={track.song.id}
            song={track.song}
            testId="playlist-track"
            leading={<Position n={index + 1} />}
            actions={<LikeButton songId={track.song.id} title={track.song.title} />}
          />
        ))}
      </ol>
    );
  }
  return <SortableTracks playlistId={playlistId} tracks={tracks} />;
}

function Position({ n }: { n: number }) {
  return (
    <span className="w-6 shrink-0 text-right text-sm text-muted-foreground tabular-nums">{n}</span>
  );
}

function SortableTracks({
  playlistId,
  tracks,
}: {
  playlistId: string;
  tracks: readonly PlaylistTrack[];
}) {
  const move = useMoveTrack(playlistId);
  const remove = useRemoveTrack(playlistId);
  // A song is in a playlist once (spec §3), so its id names its row.
  const ids = useMemo(() => tracks.map((t) => t.song.id), [tracks]);
  const sensors = useSensors(
    // A few pixels first, so a press on the handle is not a drag yet.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    // One row per arrow press: positions, not pixels, are what a listener counts.
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // dnd-kit announces ids by default; people want titles and positions.
  const announcements = useSortableAnnouncements(ids, (i) => tracks[i]?.song.title);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0 && from !== to) move.mutate({ songId: String(active.id), from, to });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol aria-label="Tracks" className={songListClass}>
          {tracks.map((track) => (
            <SortableTrack
              key={track.song.id}
              track={track}
              onRemove={() => remove.mutate(track.song)}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableTrack({ track, onRemove }: { track: PlaylistTrack; onRemove: () => void }) {
  const { song } = track;
  const sortable = useSortable({ id: song.id });
  const { setNodeRef, transform, transition, isDragging } = sortable;

  return (
    <SongRowWithActions
      song={song}
      testId="playlist-track"
      rowRef={setNodeRef}
      // Up and down only: the list is vertical.
      style={{
        transform: CSS.Translate.toString(transform && { ...transform, x: 0 }),
        transition,
      }}
      className={cn('relative', isDragging && 'z-10 bg-accent shadow-lg')}
      leading={<SortableHandle sortable={sortable} title={song.title} className="-ml-1 h-10 w-6" />}
      actions={
        <>
          {/* Phones keep Remove and the title; Like is in the player bar while it plays. */}
          <LikeButton songId={song.id} title={song.title} className="max-sm:hidden" />
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove ${song.title} from playlist`}
            title="Remove from playlist"
            className={iconButtonClass}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </>
      }
    />
  );
}
