// The player's brain in the browser: holds the machine's state and composes what follows it,
// each a hook with its own small object beside it (tested without a browser): the audio engine
// (use-audio-engine.ts), stream records (use-stream-records.ts), episode progress and resume
// (use-episode-progress.ts), the premium flag with the skip clock and toast
// (use-premium-flag.ts), the state kept across a reload (use-player-persistence.ts), the
// keyboard shortcuts (use-player-shortcuts.ts) and the Media Session (use-media-session.ts).
// The rest of the app hears playback through the playback events (a saved episode position:
// the podcasts' cache follows it) and reads it through the contexts of use-player.ts.
import { useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import {
  canGoNext,
  canGoPrevious,
  initialPlayerState,
  playerReducer,
  type PlayerState,
} from '@/core/player/player-machine.ts';
import { useSession } from '@/web/session/use-session.ts';
import { browserMediaSession } from './media-session.ts';
import { setNormalization } from './normalization-setting.ts';
import { PlaybackEvents } from './playback-events.ts';
import { readPlaybackRate, setPlaybackRate, usePlaybackRateSetting } from './playback-rate.ts';
import { StartPoints } from './play-starts.ts';
import { playerControls } from './player-controls.ts';
import { useAudioEngine } from './use-audio-engine.ts';
import { useEpisodeProgress } from './use-episode-progress.ts';
import { useMediaSession } from './use-media-session.ts';
import { usePlayerPersistence } from './use-player-persistence.ts';
import { usePlayerShortcuts } from './use-player-shortcuts.ts';
import { usePremiumFlag } from './use-premium-flag.ts';
import { useStreamRecords } from './use-stream-records.ts';
import {
  ControlsContext,
  NowPlayingContext,
  PlaybackEventsContext,
  ProgressContext,
  QueueContext,
  type PlayerItem,
} from './use-player.ts';

export function PlayerProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const stateRef = useRef<PlayerState>(state);
  stateRef.current = state;
  const hostRef = useRef<HTMLDivElement>(null);
  const [events] = useState(() => new PlaybackEvents());
  const [points] = useState(() => new StartPoints());
  const [mediaSession] = useState(browserMediaSession);
  const userId = useSession().user?.id ?? null;
  const playbackRate = usePlaybackRateSetting();

  const { playing, progress, duration, volume, muted, queue, history, shuffle, repeat } = state;
  const { premium, playId } = state;
  const current = state.current as PlayerItem | null;
  const start = { playId, playing, current };

  const recorder = useStreamRecords(start, stateRef);
  // Before the engine: a new start's resume point is decided before the engine loads it.
  const episodes = useEpisodeProgress(start, points, events);
  const { engineRef, prime } = useAudioEngine(hostRef, state, stateRef, dispatch, {
    recorder,
    episodes,
    points,
  });
  usePremiumFlag(dispatch, state.skipBlockedAt);
  usePlayerPersistence(userId, state, stateRef, dispatch, points);

  const controls = useMemo(
    () =>
      playerControls({
        dispatch,
        state: () => stateRef.current,
        engine: () => engineRef.current,
        prime,
        recorder,
        episodes,
        showPosition: (at, length, rate) => mediaSession.showPosition(at, length, rate),
        playbackRate: readPlaybackRate,
        setPlaybackRate,
        setNormalization,
        now: Date.now,
        random: Math.random,
      }),
    [engineRef, prime, recorder, episodes, mediaSession],
  );
  usePlayerShortcuts(controls, stateRef);
  const rate = current?.kind === 'episode' ? playbackRate : 1;
  useMediaSession(mediaSession, controls, { current, playing, duration, playId }, rate, stateRef);

  const nowPlaying = useMemo(() => ({ current, playing }), [current, playing]);
  const where = useMemo(
    () => ({ progress, duration, volume, muted }),
    [progress, duration, volume, muted],
  );
  const canNext = canGoNext(state);
  const canPrevious = canGoPrevious(state);
  const queued = useMemo(
    () => ({
      queue: queue as PlayerItem[],
      history: history as PlayerItem[],
      shuffle,
      repeat,
      canNext,
      canPrevious,
      premium,
    }),
    [queue, history, shuffle, repeat, canNext, canPrevious, premium],
  );

  return (
    <PlaybackEventsContext.Provider value={events}>
      <ControlsContext.Provider value={controls}>
        <NowPlayingContext.Provider value={nowPlaying}>
          <QueueContext.Provider value={queued}>
            <ProgressContext.Provider value={where}>
              {children}
              {/* The engine's two <audio> elements live here (audio-engine.ts). */}
              <div ref={hostRef} hidden data-player-engine="" />
            </ProgressContext.Provider>
          </QueueContext.Provider>
        </NowPlayingContext.Provider>
      </ControlsContext.Provider>
    </PlaybackEventsContext.Provider>
  );
}
