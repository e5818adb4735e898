// The advertisement card on Home (spec §2 Home, §4 Subscription and Ad;
// docs/decisions/0023). Only for listeners the subscription check calls free: a subscriber's
// Home never asks for an ad. The server issues a showing, the card shows it and plays its
// audio if present; the impression is reported once the ad has had its whole duration (an ad
// without audio on screen that long, one with audio heard to its end), never on Close before.
// It ends when the audio ends or on Close, then the card is gone until the next visit to Home. Ad audio is not a queue item (no stream record, no history, no
// skip), so it has its own element here rather than the player's engine; while it sounds the
// music is paused, and played again after if the ad paused it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { ExternalLink, Pause, Play, X } from 'lucide-react';
import type { AdDto } from '@/contracts/ads.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  useNormalization,
  useNowPlaying,
  usePlayerControls,
  usePlayerProgress,
} from '@/web/player/use-player.ts';
import { elementVolume, playbackGain } from '@/web/player/loudness-gain.ts';
import { chooseAudioSource, type CanPlay } from '@/web/player/rendition-choice.ts';
import { useQuality } from '@/web/player/use-quality.ts';
import { recordImpression, useActiveAd, useShowsAds } from './use-ads.ts';

/** Showings already reported by this tab (a remount in development must not post twice). */
const reported = new Set<string>();

/** Past the ad's duration: timers fire late, never early, but the server's clock is strict. */
const MARGIN_MS = 250;

function reportImpression(showingId: string) {
  if (reported.has(showingId)) return;
  reported.add(showingId);
  // Spec §8: ad failures are only logged.
  recordImpression({ showing_id: showingId }).catch((error) =>
    console.warn('Could not record an ad impression', error),
  );
}

export function AdSlot() {
  const showsAds = useShowsAds();
  const [ended, setEnded] = useState(false);
  const active = useActiveAd(showsAds === true && !ended);

  useEffect(() => {
    // Spec §8: ad failures are only logged.
    if (active.isError) console.warn('Could not load an ad', active.error);
  }, [active.isError, active.error]);

  const ad = active.data?.ad;
  if (showsAds !== true || ended || !ad) return null;
  return <AdCard key={ad.showing_id} ad={ad} onEnd={() => setEnded(true)} />;
}

type AudioState = 'none' | 'starting' | 'playing' | 'paused';

function AdCard({ ad, onEnd }: { ad: AdDto; onEnd: () => void }) {
  const labelId = useId();
  const titleId = useId();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [audio, setAudio] = useState<AudioState>(ad.audio_url ? 'starting' : 'none');
  const { current, playing } = useNowPlaying();
  const controls = usePlayerControls();
  const quality = useQuality();
  // Read by effects and handlers without re-running them.
  const player = useRef({ current, playing, controls });
  useLayoutEffect(() => {
    player.current = { current, playing, controls };
  });
  /** The ad paused the music: play it again when the ad is over. */
  const pausedMusic = useRef(false);

  /** When the ad's duration is over, counted from the card's first showing. */
  const dueAt = useRef(0);
  useEffect(() => {
    dueAt.current = performance.now() + ad.duration * 1000 + MARGIN_MS;
  }, [ad.duration]);

  // Without audio: seen once the card has stayed its duration; Close before that counts nothing.
  useEffect(() => {
    if (ad.audio_url) return;
    const timer = setTimeout(() => reportImpression(ad.showing_id), ad.duration * 1000 + MARGIN_MS);
    return () => clearTimeout(timer);
  }, [ad.audio_url, ad.duration, ad.showing_id]);

  /** With audio: heard to its end, reported when the duration is over (at once, as a rule). */
  function onAdEnded() {
    const wait = Math.max(0, dueAt.current - performance.now());
    setTimeout(() => reportImpression(ad.showing_id), wait);
    end();
  }

  // The ad's audio: the file the listener's quality picks, started at once. A browser that
  // refuses to start sound without a gesture leaves it paused, with Play ad audio to start.
  useEffect(() => {
    const element = audioRef.current;
    if (!element || !ad.audio_url) return;
    const source = chooseAudioSource(
      {
        status: ad.status,
        original: ad.audio_url,
        renditions: ad.renditions,
        gainDb: ad.loudness?.gain_db ?? null,
      },
      quality,
      (mime) => element.canPlayType(mime) as CanPlay,
    );
    element.src = source.url;
    element.play().catch(() => setAudio('paused'));
    return () => {
      element.pause();
      resumeMusic();
    };
    // The source is chosen once per showing; a quality change later does not restart the ad.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ad.showing_id]);

  // The listener started the music over the ad (the ad only ever stops it): the music wins,
  // the ad's audio waits, and the music is theirs, not the ad's to give back.
  const wasPlaying = useRef(playing);
  useEffect(() => {
    const started = playing && !wasPlaying.current;
    wasPlaying.current = playing;
    const element = audioRef.current;
    if (started && element && !element.paused) {
      pausedMusic.current = false;
      element.pause();
    }
  }, [playing]);

  function resumeMusic() {
    if (!pausedMusic.current) return;
    pausedMusic.current = false;
    const { playing: isPlaying, controls: c } = player.current;
    if (!isPlaying) c.toggle();
  }

  function end() {
    audioRef.current?.pause();
    resumeMusic();
    onEnd();
  }

  function onAdPlaying() {
    setAudio('playing');
    const { playing: isPlaying, controls: c } = player.current;
    if (isPlaying) {
      pausedMusic.current = true;
      c.toggle();
    }
  }

  const onAdPaused = () => setAudio('paused');

  const toggleAudio = () => {
    const element = audioRef.current;
    if (!element) return;
    if (audio === 'playing') element.pause();
    else element.play().catch(() => setAudio('paused'));
  };

  return (
    <section
      aria-labelledby={labelId}
      data-testid="ad-card"
      className="relative mt-6 flex flex-col gap-4 rounded-2xl border bg-card p-4 pr-12 shadow-sm sm:flex-row sm:items-center"
    >
      {ad.image_url && (
        <img
          src={ad.image_url}
          alt=""
          className="aspect-square w-full shrink-0 rounded-xl object-cover sm:size-28"
        />
      )}
      <div className="min-w-0 flex-1">
        <p
          id={labelId}
          className="text-[0.7rem] font-semibold tracking-wider text-muted-foreground uppercase"
        >
          Advertisement
        </p>
        <h2 id={titleId} className="mt-1 text-lg font-semibold break-words">
          {ad.title}
        </h2>
        {ad.description && (
          <p className="mt-1 text-sm break-words text-muted-foreground">{ad.description}</p>
        )}
        {(ad.target_url || audio !== 'none') && (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {ad.target_url && (
              <Button asChild size="sm" variant="brand">
                <a
                  href={ad.target_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-describedby={titleId}
                >
                  Learn more
                  <ExternalLink aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              </Button>
            )}
            {audio !== 'none' && (
              <Button size="sm" variant="outline" onClick={toggleAudio}>
                {audio === 'playing' ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
                {audio === 'playing' ? 'Pause ad audio' : 'Play ad audio'}
              </Button>
            )}
          </div>
        )}
      </div>
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-2 right-2"
        aria-label="Close ad"
        onClick={end}
      >
        <X aria-hidden="true" />
      </Button>
      {ad.audio_url && (
        <>
          <audio
            ref={audioRef}
            preload="auto"
            data-testid="ad-audio"
            onPlaying={onAdPlaying}
            onPause={onAdPaused}
            onEnded={onAdEnded}
          />
          <AdVolume audio={audioRef} gainDb={ad.loudness?.gain_db ?? null} />
        </>
      )}
    </section>
  );
}

/**
 * The ad sounds at the listener's volume (and mute), levelled like songs when normalisation
 * is on. Its own component: only it re-renders on the player's progress ticks.
 */
function AdVolume({
  audio,
  gainDb,
}: {
  audio: RefObject<HTMLAudioElement | null>;
  gainDb: number | null;
}) {
  const { volume, muted } = usePlayerProgress();
  const normalization = useNormalization();
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    element.volume = muted ? 0 : elementVolume(volume, playbackGain(gainDb, normalization), false);
  }, [audio, volume, muted, gainDb, normalization]);
  return null;
}
