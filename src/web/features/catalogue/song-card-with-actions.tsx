// A song card as listeners meet it (Home, Browse, Search, profiles): wired to the player, with
// Like, Add to playlist, Add to queue, Share and Download; the song's own artist also gets the
// Edit/Delete menu and the media pipeline's state.
import type { SongDto } from '@/contracts/songs.contract.ts';
import { SongCard, songCardMenuClass } from '@/web/components/song/song-card.tsx';
import { DownloadSongButton } from '@/web/features/downloads/index.ts';
import { AddToPlaylistButton, LikeButton } from '@/web/features/library/index.ts';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { AddToQueueButton } from '@/web/player/add-to-queue-button.tsx';
import { useSongPlayback } from '@/web/player/use-song-playback.ts';
import { useSession } from '@/web/session/use-session.ts';
import { SongMediaStatus } from './song-media-status.tsx';
import { SongOwnerMenu } from './song-owner-menu.tsx';

export function SongCardWithActions({ song }: { song: SongDto }) {
  const { item, ...playback } = useSongPlayback(song);
  // Only the song's own artist gets Edit/Delete; the server enforces it regardless.
  const userId = useSession().user?.id;
  const isOwner = !!userId && song.artist_id === userId;

  return (
    <SongCard
      song={song}
      playback={playback}
      menu={isOwner && <SongOwnerMenu song={song} className={songCardMenuClass} />}
      actions={
        <>
          {/* Both render nothing for external catalogue tracks: only stored songs count. */}
          <LikeButton songId={song.id} title={song.title} />
          <AddToPlaylistButton song={song} />
          {item && <AddToQueueButton item={item} />}
          {/* A stored song has a page to link to; an external catalogue track has none. */}
          {!song.source && <ShareButton look="icon" kind="song" id={song.id} title={song.title} />}
          {/* Renders nothing until the song has its Opus rendition (and for external tracks). */}
          <DownloadSongButton song={song} />
        </>
      }
      // The pipeline's state is the artist's business; listeners just play the song.
      footer={isOwner && <SongMediaStatus song={song} />}
    />
  );
}
