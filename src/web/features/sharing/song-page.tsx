// /song/{id}, a song's share link. Signed out: the song alone (cover, title, artist, length)
// with its 30 s preview on a plain <audio>, and the way in to hear the whole song; no shell
// or player is rendered, so the page paints as soon as its data is in. Signed in: the same
// inside the app, and Play plays the whole song through the player.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { House, Pause, Play } from 'lucide-react';
import { shareApi } from '@/contracts/api/share.api.ts';
import { PREVIEW_SECONDS, type SharedSong } from '@/contracts/share.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { BrandMark, BrandName } from '@/web/components/brand.tsx';
import { LoadFailed, LoadingMessage } from '@/web/components/page-status.tsx';
import { ArtistLink } from '@/web/components/song/artist-link.tsx';
import {
  artistLabel,
  fallbackCover,
  PLACEHOLDER_COVER,
} from '@/web/components/song/song-display.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { api, isApiError } from '@/web/lib/api-client.ts';
import { formatTime } from '@/web/lib/format.ts';
import { useSongPlayback } from '@/web/player/use-song-playback.ts';
import { authState } from '@/web/session/return-to.ts';
import { useSession } from '@/web/session/use-session.ts';
import { ShareButton } from './share-button.tsx';

const COVER_SIZE = 240;

function useSharedSong(id: string, signedIn: boolean) {
  return useQuery({
    // By who asks: a listener's answer holds the whole song, a visitor's the preview only.
    queryKey: ['share', 'song', id, signedIn],
    queryFn: ({ signal }) => api(shareApi.song, { params: { id }, signal }),
    // A missing song stays missing; only a network hiccup is worth another try.
    retry: (count, e) => !(isApiError(e) && e.status > 0 && e.status < 500) && count < 2,
  });
}

function Cover({ song }: { song: SongDto }) {
  return (
    // The page's largest paint: sized up front and fetched first, never lazily.
    <img
      src={song.cover_art_url || PLACEHOLDER_COVER}
      alt={`Cover of ${song.title}`}
      width={COVER_SIZE}
      height={COVER_SIZE}
      fetchPriority="high"
      decoding="async"
      onError={fallbackCover}
      className="size-48 shrink-0 rounded-xl bg-muted object-cover shadow-lg sm:size-60"
    />
  );
}

function SongFacts({ song, linkArtist }: { song: SongDto; linkArtist: boolean }) {
  const artist = artistLabel(song);
  return (
    <div className="min-w-0 space-y-2">
      <p className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">Song</p>
      <h1 className="text-3xl font-bold tracking-tight break-words md:text-4xl">{song.title}</h1>
      <p className="text-muted-foreground">
        {linkArtist ? (
          <ArtistLink artistId={song.artist_id} className="font-medium text-foreground">
            {artist}
          </ArtistLink>
        ) : (
          <span className="font-medium text-foreground">{artist}</span>
        )}
        {song.genre && ` · ${song.genre}`}
        {song.duration != null && (
          <>
            {' · '}
            <span aria-label={`Length ${formatTime(song.duration)}`}>
              {formatTime(song.duration)}
            </span>
          </>
        )}
      </p>
    </div>
  );
}

function PlayButton({
  playing,
  disabled,
  onClick,
}: {
  playing: boolean;
  disabled?: boolean;
  onClick?: () => void;
}) {
  return (
    <Button
      variant="brand"
      size="lg"
      className="rounded-full"
      disabled={disabled}
      onClick={onClick}
    >
      {playing ? (
        <Pause className="fill-current" aria-hidden="true" />
      ) : (
        <Play className="fill-current" aria-hidden="true" />
      )}
      {playing ? 'Pause' : 'Play'}
    </Button>
  );
}

/** A visitor's preview: a plain <audio>, no player machine, with its progress shown. */
function PreviewPlayer({ song }: { song: SongDto }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [length, setLength] = useState<number>(PREVIEW_SECONDS);
  const src = song.preview_url;
  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  };
  const percent = length > 0 ? Math.min(100, (position / length) * 100) : 0;

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <PlayButton playing={playing} disabled={!src} onClick={toggle} />
        <span className="text-sm text-muted-foreground">
          {src ? `${PREVIEW_SECONDS}-second preview` : 'No preview for this song'}
        </span>
      </div>
      {src && (
        <>
          <audio
            ref={audio}
            src={src}
            preload="none"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
            onDurationChange={(e) => {
              const d = e.currentTarget.duration;
              if (Number.isFinite(d) && d > 0) setLength(d);
            }}
          />
          <div
            role="progressbar"
            aria-label="Preview progress"
            aria-valuemin={0}
            aria-valuemax={Math.round(length)}
            aria-valuenow={Math.round(position)}
            aria-valuetext={`${formatTime(position)} of ${formatTime(length)}`}
            className="h-1.5 w-full max-w-sm overflow-hidden rounded-full bg-muted"
          >
            <div className="brand-gradient h-full" style={{ width: `${percent}%` }} />
          </div>
        </>
      )}
    </div>
  );
}

function VisitorSong({ song }: { song: SongDto }) {
  const { pathname } = useLocation();
  return (
    <>
      <header className="flex flex-col gap-6 sm:flex-row sm:items-end">
        <Cover song={song} />
        <SongFacts song={song} linkArtist={false} />
      </header>
      <PreviewPlayer song={song} />
      <section
        aria-labelledby="song-join-heading"
        className="grid gap-3 rounded-xl border bg-card/60 p-5"
      >
        <h2 id="song-join-heading" className="font-semibold">
          Sign up to hear the whole song
        </h2>
        <p className="text-sm text-muted-foreground">
          Listen to every song on Canto, make playlists and follow artists.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="brand">
            <Link to="/auth" state={authState(pathname, 'sign-up')}>
              Sign up
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/auth" state={authState(pathname)}>
              Sign in
            </Link>
          </Button>
        </div>
      </section>
    </>
  );
}

function ListenerSong({ shared }: { shared: SharedSong }) {
  const { song } = shared;
  const { current, playing, play } = useSongPlayback(song);
  return (
    <>
      <header className="flex flex-col gap-6 sm:flex-row sm:items-end">
        <Cover song={song} />
        <SongFacts song={song} linkArtist />
      </header>
      <div className="flex flex-wrap items-center gap-2">
        <PlayButton playing={current && playing} disabled={!play} onClick={play ?? undefined} />
        <ShareButton kind="song" id={song.id} title={song.title} />
      </div>
    </>
  );
}

function NotAvailable() {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center">
      <BrandMark className="size-12" />
      <h1 className="text-2xl font-bold tracking-tight">This song isn't available</h1>
      <p className="max-w-md text-muted-foreground">
        The link may be wrong, or the song was made private or removed.
      </p>
      <Button asChild>
        <Link to="/">
          <House aria-hidden="true" />
          Go to Canto
        </Link>
      </Button>
    </div>
  );
}

function SongContent({ id, signedIn }: { id: string; signedIn: boolean }) {
  const { data, error, isPending, refetch, isFetching } = useSharedSong(id, signedIn);
  const title = data ? `${data.song.title} · ${artistLabel(data.song)}` : null;
  useEffect(() => {
    if (title && !signedIn) document.title = `${title} · Canto`;
  }, [title, signedIn]);
  if (isPending) return <LoadingMessage />;
  if (error) {
    if (isApiError(error) && error.status === 404) return <NotAvailable />;
    return (
      <LoadFailed
        message="Could not load this song"
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  }
  return signedIn ? <ListenerSong shared={data} /> : <VisitorSong song={data.song} />;
}

export default function SongPage() {
  const { id = '' } = useParams<{ id: string }>();
  const signedIn = useSession().status === 'signed-in';
  if (signedIn)
    return (
      <div className="grid max-w-4xl gap-8">
        <SongContent id={id} signedIn />
      </div>
    );
  // The shell is not there for a visitor: the page brings its own landmark and way home.
  return (
    <div className="min-h-dvh">
      <header className="flex items-center px-4 py-4 md:px-8">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        >
          <BrandMark />
          <BrandName />
        </Link>
      </header>
      <main className="mx-auto grid max-w-4xl gap-8 px-4 pb-12 md:px-8">
        <SongContent id={id} signedIn={false} />
      </main>
    </div>
  );
}
