// A song row as the listener's lists show it (liked songs, a playlist, recently played):
// wired to the player, with Add to playlist, Add to queue and Download, then the list's own actions.
import { AddToQueueButton } from '@/web/player/add-to-queue-button.tsx';
import { useSongPlayback } from '@/web/player/use-song-playback.ts';
import { SongRow, type SongRowProps } from '@/web/components/song/song-row.tsx';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { DownloadSongButton } from '@/web/features/downloads/index.ts';
import { AddToPlaylistButton } from './add-to-playlist-button.tsx';

export function SongRowWithActions({ song, actions, ...row }: Omit<SongRowProps, 'playback'>) {
  const { item, ...playback } = useSongPlayback(song);
  return (
    <SongRow
      {...row}
      song={song}
      playback={playback}
      actions={
        <>
          {/* Nothing for external catalogue tracks or signed-out visitors. */}
          <AddToPlaylistButton song={song} />
          {item && <AddToQueueButton item={item} />}
          {!song.source && <ShareButton look="icon" kind="song" id={song.id} title={song.title} />}
          <DownloadSongButton song={song} />
          {actions}
        </>
      }
    />
  );
}
