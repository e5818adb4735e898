// Owns the one <audio> element and makes it follow the machine's state; the element's own
// events (time, duration, end, pauses from outside such as media keys) flow back as events.
// It also picks the file to stream (quality + what this browser plays) and applies the
// song's loudness gain (issue 8).
import { useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { initialPlayerState, playerReducer } from '../../../core/player/player-machine.ts';
import { elementVolume, linearGain } from './loudness-gain.ts';
import { connectLoudnessGraph, type LoudnessGraph } from './loudness-graph.ts';
import { chooseAudioSource, type CanPlay, type PlayerMedia } from './rendition-choice.ts';
import { useQuality } from './use-quality.ts';
import {
  ControlsContext,
  NowPlayingContext,
  ProgressContext,
  type PlayerControls,
} from './use-player.ts';

/** The gain on the graph, else folded into the element's volume (capped at 1). */
function applyLevels(
  audio: HTMLAudioElement,
  node: LoudnessGraph | null,
  gain: number,
  volumePercent: number,
) {
  node?.setGain(gain);
  audio.volume = elementVolume(volumePercent, gain, node !== null);
  // What is applied, for anyone checking (and the browser journeys).
  audio.dataset.gain = String(gain);
}

export function PlayerProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const audioRef = useRef<HTMLAudioElement>(null);
  const loaded = useRef<{ id: string; url: string } | null>(null);
  // The machine keeps the item it was given; its media is kept here, by id, as last loaded
  // (loading again, e.g. after renditions arrived, brings the newer one).
  const mediaById = useRef(new Map<string, PlayerMedia | null>());
  const graph = useRef<LoudnessGraph | null | undefined>(undefined);
  const quality = useQuality();
  const { current, playing, progress, duration, volume } = state;

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !current) return;
    const media = mediaById.current.get(current.id) ?? null;
    const url = media
      ? chooseAudioSource(media, quality, (mime) => audio.canPlayType(mime) as CanPlay).url
      : current.audioUrl;
    if (loaded.current?.url !== url) {
      // The same item in another file (quality changed, renditions arrived): carry on from
      // where it was; a new item starts at 0.
      const resumeAt = loaded.current?.id === current.id ? audio.currentTime : 0;
      loaded.current = { id: current.id, url };
      audio.src = url;
      if (resumeAt > 0) audio.currentTime = resumeAt;
    }
    if (playing && graph.current === undefined) graph.current = connectLoudnessGraph(audio);
    applyLevels(audio, graph.current ?? null, linearGain(media?.gainDb), volume);
    if (playing && audio.paused) {
      graph.current?.wake();
      audio.play().catch((e: unknown) => {
        // A newer load or a pause interrupted this play: not a failure.
        if (e instanceof DOMException && e.name === 'AbortError') return;
        // Blocked autoplay or an unplayable source: show it as paused.
        dispatch({ type: 'playbackPaused' });
      });
    } else if (!playing && !audio.paused) {
      audio.pause();
    }
    // Idempotent, so a volume change running it again reloads and restarts nothing.
  }, [current, playing, quality, volume]);

  const controls = useMemo<PlayerControls>(
    () => ({
      load: (item) => {
        mediaById.current.set(item.id, item.media);
        dispatch({ type: 'itemLoaded', item });
      },
      toggle: () => dispatch({ type: 'playToggled' }),
      seek: (seconds) => {
        const audio = audioRef.current;
        if (!audio || !Number.isFinite(seconds)) return;
        audio.currentTime = Math.max(0, seconds);
        dispatch({ type: 'seeked', progress: seconds });
      },
      setVolume: (v) => dispatch({ type: 'volumeChanged', volume: v }),
    }),
    [],
  );

  const nowPlaying = useMemo(() => ({ current, playing }), [current, playing]);
  const where = useMemo(() => ({ progress, duration, volume }), [progress, duration, volume]);

  return (
    <ControlsContext.Provider value={controls}>
      <NowPlayingContext.Provider value={nowPlaying}>
        <ProgressContext.Provider value={where}>
          {children}
          <audio
            ref={audioRef}
            preload="metadata"
            // The loudness graph reads the samples: cross-origin media must allow it.
            crossOrigin="anonymous"
            data-testid="player-audio"
            onTimeUpdate={(e) =>
              dispatch({ type: 'progressed', progress: e.currentTarget.currentTime })
            }
            onDurationChange={(e) =>
              dispatch({ type: 'durationKnown', duration: e.currentTarget.duration })
            }
            onPlay={() => dispatch({ type: 'playbackStarted' })}
            onPause={(e) => {
              // The element pauses itself at the end; 'ended' says what happened then.
              if (!e.currentTarget.ended) dispatch({ type: 'playbackPaused' });
            }}
            onEnded={(e) => {
              e.currentTarget.currentTime = 0;
              dispatch({ type: 'ended' });
            }}
            onError={() => dispatch({ type: 'playbackPaused' })}
          />
        </ProgressContext.Provider>
      </NowPlayingContext.Provider>
    </ControlsContext.Provider>
  );
}
