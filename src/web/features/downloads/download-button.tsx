// 'Download' on a song row, an episode row and a playlist's header: stores the item(s) on the
// device for offline listening. A subscriber's only (the premium page's promise): others see
// the button marked unavailable, and a click says why and where Premium is.
import { Check, Download, Loader2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import type { DownloadSource } from '@/web/lib/offline/download-store.ts';
import { episodeSource, songSource } from './download-sources.ts';
import {
  DOWNLOAD_TOAST,
  useDownloadAction,
  useDownloadRights,
  useDownloadsSnapshot,
} from './use-downloads.ts';

type State = 'idle' | 'pending' | 'done';

function useDownloadState(sources: readonly DownloadSource[]): State {
  const { entries, pending } = useDownloadsSnapshot();
  const has = (s: DownloadSource, set: Iterable<string>) => [...set].includes(`${s.kind}:${s.id}`);
  const stored = entries.map((e) => `${e.kind}:${e.id}`);
  if (sources.some((s) => has(s, pending))) return 'pending';
  if (sources.length > 0 && sources.every((s) => has(s, stored))) return 'done';
  return 'idle';
}

function usePremiumExplainer() {
  const navigate = useNavigate();
  return () =>
    toast.info(DOWNLOAD_TOAST.premium, {
      id: 'download-premium',
      description: DOWNLOAD_TOAST.premiumDescription,
      action: { label: 'Get Premium', onClick: () => void navigate('/premium') },
    });
}

/** The round icon button of a list row. */
function RowDownloadButton({
  sources,
  title,
  className,
}: {
  sources: readonly DownloadSource[];
  title: string;
  className?: string;
}) {
  const { canDownload } = useDownloadRights();
  const state = useDownloadState(sources);
  const run = useDownloadAction();
  const explain = usePremiumExplainer();
  const label =
    state === 'done'
      ? `Downloaded ${title}`
      : state === 'pending'
        ? `Downloading ${title}`
        : `Download ${title}`;
  return (
    <button
      type="button"
      aria-label={label}
      // Not disabled for a free listener: the click says why (the title describes it too).
      aria-disabled={canDownload && state !== 'idle' ? 'true' : undefined}
      aria-busy={state === 'pending' || undefined}
      title={
        canDownload
          ? state === 'done'
            ? 'Downloaded'
            : 'Download'
          : 'Download (Premium): play offline with a Premium subscription'
      }
      onClick={() => {
        if (!canDownload) return explain();
        if (state === 'idle') void run(sources, title);
      }}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70',
        !canDownload && 'opacity-60',
        state === 'done' && 'text-emerald-400',
        className,
      )}
    >
      {state === 'pending' ? (
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      ) : state === 'done' ? (
        <Check className="size-4" aria-hidden="true" />
      ) : (
        <Download className="size-4" aria-hidden="true" />
      )}
    </button>
  );
}

export function DownloadSongButton({ song, className }: { song: SongDto; className?: string }) {
  const source = songSource(song);
  if (!source) return null;
  return <RowDownloadButton sources={[source]} title={song.title} className={className} />;
}

export function DownloadEpisodeButton({
  episode,
  className,
}: {
  episode: EpisodeDto;
  className?: string;
}) {
  const source = episodeSource(episode);
  if (!source) return null;
  return <RowDownloadButton sources={[source]} title={episode.title} className={className} />;
}

/** A playlist's 'Download': every song of it that can be downloaded. */
export function DownloadPlaylistButton({
  songs,
  title,
}: {
  songs: readonly SongDto[];
  title: string;
}) {
  const sources = songs.flatMap((s) => songSource(s) ?? []);
  const { canDownload } = useDownloadRights();
  const state = useDownloadState(sources);
  const run = useDownloadAction();
  const explain = usePremiumExplainer();
  return (
    <>
      <Button
        variant="outline"
        aria-disabled={
          canDownload && (sources.length === 0 || state !== 'idle') ? 'true' : undefined
        }
        aria-busy={state === 'pending' || undefined}
        aria-describedby={canDownload ? undefined : 'download-premium-note'}
        className={cn(!canDownload && 'opacity-60')}
        onClick={() => {
          if (!canDownload) return explain();
          if (state === 'idle' && sources.length > 0) void run(sources, title);
        }}
      >
        {state === 'pending' ? (
          <Loader2 className="animate-spin" aria-hidden="true" />
        ) : state === 'done' ? (
          <Check aria-hidden="true" />
        ) : (
          <Download aria-hidden="true" />
        )}
        {state === 'done' ? 'Downloaded' : 'Download'}
      </Button>
      {!canDownload && (
        <span id="download-premium-note" className="sr-only">
          Offline downloads are a Premium feature
        </span>
      )}
    </>
  );
}
