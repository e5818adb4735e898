// Downloads (/downloads): what is stored on this device for offline listening, each with its
// size, Play and Remove, Remove all, and the storage the browser allows. Downloads play only
// while the subscription is active: after a lapse they stay on the device, silent, and this
// page says Premium is needed (docs/decisions/0036-offline-downloads.md).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Download, Pause, Play, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/web/components/ui/button.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { songListClass } from '@/web/components/song/song-row.tsx';
import { removeDownload, removeEveryDownload } from '@/web/lib/offline/downloads-state.ts';
import type { DownloadEntry } from '@/web/lib/offline/download-store.ts';
import { audioKey } from '@/web/lib/offline/download-keys.ts';
import { useNowPlaying, usePlayerControls, type PlayerItem } from '@/web/player/use-player.ts';
import { formatBytes, formatDuration } from './download-format.ts';
import { useDownloadRights, useDownloadsSnapshot } from './use-downloads.ts';

export const DOWNLOADS_EMPTY = 'No downloads yet';
export const DOWNLOADS_LAPSED =
  'Your downloads need an active Premium subscription to play. They stay on this device: renew Premium to play them again.';

function entryToPlayable(entry: DownloadEntry): PlayerItem {
  return {
    id: entry.id,
    title: entry.title,
    audioUrl: audioKey(entry.kind, entry.id),
    podcastTitle: entry.artist,
    coverArt: entry.cover,
    media: null,
    kind: entry.kind,
    ...(entry.durationSeconds !== null && { durationSeconds: entry.durationSeconds }),
    ...(entry.artistId && { artistId: entry.artistId }),
    ...(entry.podcastId && { podcastId: entry.podcastId }),
  };
}

function useStorageEstimate(bytesStored: number) {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null>(null);
  useEffect(() => {
    let live = true;
    void navigator.storage
      ?.estimate?.()
      .then((e) => {
        if (live && e.quota !== undefined && e.usage !== undefined) {
          setEstimate({ usage: e.usage, quota: e.quota });
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bytesStored]);
  return estimate;
}

function DownloadRow({ entry, canPlay }: { entry: DownloadEntry; canPlay: boolean }) {
  const { current, playing } = useNowPlaying();
  const { load } = usePlayerControls();
  const isCurrent = current?.id === entry.id;
  const isPlaying = isCurrent && playing;
  const duration = formatDuration(entry.durationSeconds);
  return (
    <li
      data-testid="download"
      aria-current={isCurrent ? 'true' : undefined}
      className="flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-card"
    >
      <Button
        size="icon"
        className="brand-gradient size-9 shrink-0 rounded-full text-white hover:opacity-90"
        aria-label={`${isPlaying ? 'Pause' : 'Play'} ${entry.title}`}
        aria-disabled={canPlay ? undefined : 'true'}
        onClick={() => {
          if (canPlay) load(entryToPlayable(entry));
          else
            toast.info('Premium needed', { id: 'downloads-lapsed', description: DOWNLOADS_LAPSED });
        }}
      >
        {isPlaying ? (
          <Pause className="size-4 fill-current" aria-hidden="true" />
        ) : (
          <Play className="ml-0.5 size-4 fill-current" aria-hidden="true" />
        )}
      </Button>
      <CoverArt src={entry.cover} className="size-10 shrink-0 rounded object-cover" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{entry.title}</p>
        <p className="truncate text-sm text-muted-foreground">
          {entry.artist}
          {entry.kind === 'episode' && ' · Episode'}
        </p>
      </div>
      <p className="hidden shrink-0 text-sm text-muted-foreground tabular-nums sm:block">
        {duration && <span>{duration} · </span>}
        <span data-testid="download-size">{formatBytes(entry.bytes)}</span>
      </p>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Remove ${entry.title}`}
        onClick={() => void removeDownload(entry.kind, entry.id)}
      >
        <Trash2 aria-hidden="true" />
        Remove
      </Button>
    </li>
  );
}

export default function DownloadsPage() {
  const { entries, ready } = useDownloadsSnapshot();
  const { canPlay, canDownload } = useDownloadRights();
  const total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const estimate = useStorageEstimate(total);

  return (
    <section aria-labelledby="downloads-heading" aria-busy={!ready} className="mx-auto max-w-4xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="downloads-heading" className="text-xl font-bold tracking-tight">
          On this device
        </h2>
        {entries.length > 0 && (
          <Button variant="outline" onClick={() => void removeEveryDownload()}>
            <Trash2 aria-hidden="true" />
            Remove all
          </Button>
        )}
      </div>
      <p className="mb-4 text-sm text-muted-foreground" data-testid="downloads-storage">
        {`Downloads: ${formatBytes(total)}`}
        {estimate &&
          ` · Storage used ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} this browser allows`}
      </p>
      {entries.length > 0 && !canPlay && (
        <div
          role="status"
          className="mb-4 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-sm"
        >
          <p>{DOWNLOADS_LAPSED}</p>
          <Link
            to="/premium"
            className="mt-1 inline-block font-medium text-ring underline underline-offset-4"
          >
            Get Premium
          </Link>
        </div>
      )}
      {!ready ? null : entries.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Download className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">{DOWNLOADS_EMPTY}</p>
          <p className="text-sm">
            {canDownload
              ? 'Download songs, playlists and episodes to listen without a connection.'
              : 'Offline downloads are part of Premium: download songs, playlists and episodes and listen without a connection.'}
          </p>
        </div>
      ) : (
        <ul className={songListClass} aria-label="Downloads">
          {entries.map((entry) => (
            <DownloadRow key={`${entry.kind}:${entry.id}`} entry={entry} canPlay={canPlay} />
          ))}
        </ul>
      )}
    </section>
  );
}
