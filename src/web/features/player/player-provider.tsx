// Owns the one <audio> element and makes it follow the machine's state; the element's own
// events (time, duration, end, pauses from outside such as media keys) flow back as events.
import { useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { initialPlayerState, playerReducer } from '../../../core/player/player-machine.ts';
import {
  ControlsContext,
  NowPlayingContext,
  ProgressContext,
  type PlayerControls,
} from './use-player.ts';

export function PlayerProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const audioRef = useRef<HTMLAudioElement>(null);
  const loadedUrl = useRef<string | null>(null);
  const { current, playing, progress, duration, volume } = state;

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !current) return;
    if (loadedUrl.current !== current.audioUrl) {
      loadedUrl.current = current.audioUrl;
      audio.src = current.audioUrl;
    }
    if (playing && audio.paused) {
      audio.play().catch((e: unknown) => {
        // A newer load or a pause interrupted this play: not a failure.
        if (e instanceof DOMException && e.name === 'AbortError') return;
        // Blocked autoplay or an unplayable source: show it as paused.
        dispatch({ type: 'playbackPaused' });
      });
    } else if (!playing && !audio.paused) {
      audio.pause();
    }
  }, [current, playing]);

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = volume / 100;
  }, [volume]);

  const controls = useMemo<PlayerControls>(
    () => ({
      load: (item) => dispatch({ type: 'itemLoaded', item }),
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
