// The player's brain in the browser: holds the machine's state and drives the one audio engine
// from it (what plays, what is preloaded next, levels); the engine's events flow back as
// machine events. Around it: stream records, the skip clock and the premium flag, the Media
// Session, keyboard shortcuts, the state kept across a reload, and the skip-limit toast. It
// also picks the file to stream (quality + what this browser plays) and the loudness gain
// (normalisation on or off). Episodes start where the listener left them, save their position
// on the server as they play (whoever caches episode lists hears of it through
// onEpisodeProgressSaved), and play at the listener's speed with skips back and forward;
// songs play at 1×.
import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import {
  canGoNext,
  canGoPrevious,
  initialPlayerState,
  playerReducer,
  type PlayerState,
} from '@/core/player/player-machine.ts';
import type { PlayStarted } from '@/contracts/listening.contract.ts';
import type { PodcastDetail } from '@/contracts/podcasts.contract.ts';
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { useSubscription } from '@/web/session/use-subscription.ts';
import { AudioEngine, type EngineTrack } from './audio-engine.ts';
import {
  EpisodeProgressReporter,
  PROGRESS_EVERY_MS,
  type EpisodeProgressSaved,
} from './episode-progress.ts';
import { playbackGain } from './loudness-gain.ts';
import {
  bindMediaSession,
  showMediaSessionItem,
  showMediaSessionPosition,
  showMediaSessionState,
} from './media-session.ts';
import { setNormalization, useNormalizationSetting } from './normalization-setting.ts';
import { episodeToPlayable, songToPlayable } from './playable.ts';
import {
  readPlaybackRate as readRate,
  setPlaybackRate,
  usePlaybackRateSetting,
} from './playback-rate.ts';
import type { Quality } from './playback-quality.ts';
import { loadPlayer, savePlayer } from './player-persistence.ts';
import { describeTarget, shortcutFor, type ShortcutAction } from './player-shortcuts.ts';
import { chooseAudioSource, type CanPlay } from './rendition-choice.ts';
import { recordable, REPORT_EVERY_MS, StreamRecorder } from './stream-recorder.ts';
import { useQuality } from './use-quality.ts';
import {
  ControlsContext,
  NowPlayingContext,
  ProgressContext,
  QueueContext,
  type PlayerControls,
  type PlayerItem,
} from './use-player.ts';

/** Spec §4: the skip counter's reset is checked every 60 s. */
const SKIP_CLOCK_MS = 60_000;
/** While playing, the position is kept this often (and on pause, seek, hide). */
const SAVE_EVERY_MS = 2_000;
/** A run of seeks (arrow keys on the scrubber) saves an episode's position once, after it. */
const SEEK_SAVE_DELAY_MS = 1_000;

const SKIP_LIMIT_TITLE = 'Skip limit reached';
const SKIP_LIMIT_DESCRIPTION =
  'Free users can skip 2 times per hour. Upgrade to Premium for unlimited skips!';

function trackOf(
  item: PlayerItem,
  quality: Quality,
  normalization: boolean,
  rate: number,
  canPlayType: (mime: string) => string,
): EngineTrack {
  const url = item.media
    ? chooseAudioSource(item.media, quality, (mime) => canPlayType(mime) as CanPlay).url
    : item.audioUrl;
  return {
    id: item.id,
    url,
    gain: playbackGain(item.media?.gainDb, normalization),
    // Speed is for episodes; songs play as recorded.
    rate: item.kind === 'episode' ? rate : 1,
  };
}

const streamRecords = {
  start: (songId: string) => api.post<PlayStarted>('/plays', { song_id: songId }),
  report: (recordId: string, listenedMs: number) =>
    api.patch(`/plays/${recordId}`, { listened_ms: listenedMs }),
};

const episodeProgress = {
  save: (episodeId: string, body: { position: number; completed?: boolean }) =>
    api.put(`/me/episode-progress/${episodeId}`, body),
};

export function PlayerProvider({
  children,
  onEpisodeProgressSaved,
}: {
  children: ReactNode;
  /** An episode's position was saved on the server (cached episode lists may follow it). */
  onEpisodeProgressSaved?: (saved: EpisodeProgressSaved) => void;
}) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const hostRef = useRef<HTMLDivElement>(null);
  const engineRef = useRef<AudioEngine | null>(null);
  const stateRef = useRef<PlayerState>(state);
  stateRef.current = state;
  const recorder = useRef(new StreamRecorder(streamRecords)).current;
  const progressSaved = useRef(onEpisodeProgressSaved);
  progressSaved.current = onEpisodeProgressSaved;
  // Where episodes were left in this page (saved), newer than the items' own resumeAt.
  const leftAt = useRef(new Map<string, EpisodeProgressSaved>());
  const [episodes] = useState(
    () =>
      new EpisodeProgressReporter(episodeProgress, (saved) => {
        leftAt.current.set(saved.episodeId, saved);
        progressSaved.current?.(saved);
      }),
  );
  const userId = useSession().user?.id ?? null;
  const quality = useQuality();
  const normalization = useNormalizationSetting();
  const playbackRate = usePlaybackRateSetting();
  // Where a start begins when it is not 0: the restored item's saved position.
  const startAt = useRef<{ playId: number; at: number } | null>(null);
  // Newer media for an item whose signed URLs expired (refetched once per start).
  const fresh = useRef(new Map<string, PlayerItem>());
  const [refreshed, setRefreshed] = useState(0);
  const refreshedFor = useRef<number | null>(null);
  const restoredFor = useRef<string | null>(null);
  const recordedPlayId = useRef<number | null>(null);
  const trackedPlayId = useRef<number | null>(null);
  // The start the engine shows: a new start of another item may resume; a restart may not.
  const shown = useRef<{ id: string; playId: number } | null>(null);
  const seekSave = useRef<ReturnType<typeof setTimeout> | null>(null);

  const { playing, progress, duration, volume, muted, queue, history, shuffle, repeat } = state;
  const { premium, playId, skipBlockedAt } = state;
  const current = state.current as PlayerItem | null;

  // The engine lives as long as the provider; its events become machine events.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const engine = new AudioEngine(host, {
      time: (seconds, isPlaying) => {
        dispatch({ type: 'progressed', progress: seconds });
        if (isPlaying) {
          recorder.ticked(seconds);
          episodes.moved(seconds);
        }
      },
      duration: (seconds) => dispatch({ type: 'durationKnown', duration: seconds }),
      started: () => dispatch({ type: 'playbackStarted' }),
      paused: () => {
        recorder.stopped(true);
        // Where it stopped, not the last time update (up to ~¼ s earlier).
        episodes.moved(engine.position);
        episodes.report();
        dispatch({ type: 'playbackPaused' });
      },
      ended: () => {
        // The last step since the element's final time update was heard too.
        recorder.ticked(stateRef.current.duration);
        episodes.ended(stateRef.current.duration);
        dispatch({ type: 'ended' });
      },
      failed: () => {
        const wanted = stateRef.current.playing;
        recorder.stopped(true);
        episodes.report();
        dispatch({ type: 'playbackPaused' });
        void refreshExpired(wanted);
      },
    });
    engineRef.current = engine;
    return () => {
      engine.destroy();
      engineRef.current = null;
    };
  }, [recorder, episodes]);

  /** An item whose signed media URL expired (a long-open page, a restored queue): fetched
   * again once per start, and it goes on from the same position with new URLs. */
  async function refreshExpired(resume: boolean) {
    const s = stateRef.current;
    const item = s.current as PlayerItem | null;
    const episode = item?.kind === 'episode' && item.podcastId;
    if (!item || !(recordable(item) || episode) || refreshedFor.current === s.playId) return;
    refreshedFor.current = s.playId;
    try {
      let again: PlayerItem | null;
      if (episode) {
        const detail = await api.get<PodcastDetail>(`/podcasts/${item.podcastId}`);
        const found = detail.episodes.find((e) => e.id === item.id);
        again = found ? episodeToPlayable(found) : null;
      } else {
        again = songToPlayable(await api.get<SongDto>(`/songs/${item.id}`));
      }
      if (!again) return;
      fresh.current.set(item.id, again);
      startAt.current = { playId: s.playId, at: s.progress };
      setRefreshed((n) => n + 1);
      if (resume) dispatch({ type: 'playbackStarted' });
    } catch (e) {
      console.warn('Could not refresh the media of', item.id, e);
    }
  }

  const mediaOf = (item: PlayerItem): PlayerItem => {
    const newer = fresh.current.get(item.id);
    return newer ? { ...item, media: newer.media, audioUrl: newer.audioUrl } : item;
  };

  /** Where an episode resumes: where it was left (this page's saves first), 0 once played. */
  const resumeOf = (item: PlayerItem): number => {
    if (item.kind !== 'episode') return 0;
    const saved = leftAt.current.get(item.id);
    if (saved) return saved.completed ? 0 : saved.position;
    return item.resumeAt ?? 0;
  };

  // The current item: loaded (or followed: new file, new gain, new speed) on each change.
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine) return;
    if (!current) {
      shown.current = null;
      return engine.clear();
    }
    if (shown.current?.playId !== playId) {
      // Another item's start resumes it; the same item again (Previous after 3 s, repeat,
      // the rewind at the end) starts at 0. A restored position comes first.
      const another = shown.current?.id !== current.id;
      shown.current = { id: current.id, playId };
      if (another && startAt.current?.playId !== playId && resumeOf(current) > 0)
        startAt.current = { playId, at: resumeOf(current) };
    }
    const track = trackOf(mediaOf(current), quality, normalization, playbackRate, (m) =>
      engine.canPlayType(m),
    );
    const at = startAt.current?.playId === playId ? startAt.current.at : 0;
    engine.show(track, playId, at);
  }, [current, playId, quality, normalization, playbackRate, refreshed]);

  // Play or pause as the machine wants.
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine || !current) return;
    if (playing) engine.play();
    else engine.pause();
  }, [playing, current, playId]);

  useEffect(() => engineRef.current?.setLevels(volume, muted), [volume, muted]);

  // What the machine plays after this item ends (not under repeat one): preloaded, so the
  // end is gapless and Next starts at once. Not an episode to resume: the engine would hand
  // it over from 0, and it starts where it was left instead.
  const queuedNext = repeat === 'one' ? null : ((queue[0] as PlayerItem | undefined) ?? null);
  const upNext = queuedNext && resumeOf(queuedNext) > 0 ? null : queuedNext;
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine) return;
    engine.preload(
      upNext
        ? trackOf(mediaOf(upNext), quality, normalization, playbackRate, (m) =>
            engine.canPlayType(m),
          )
        : null,
    );
  }, [upNext, playId, quality, normalization, playbackRate, refreshed]);

  // Stream records: a record when a start first plays; the one before is reported as it ends.
  useEffect(() => {
    if (recordedPlayId.current !== null && recordedPlayId.current !== playId) {
      recorder.finish();
      recordedPlayId.current = null;
    }
    if (playing && current && recordedPlayId.current !== playId) {
      recordedPlayId.current = playId;
      recorder.begin(current, stateRef.current.progress);
    }
  }, [playId, playing, current, recorder]);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => recorder.report(), REPORT_EVERY_MS);
    return () => clearInterval(timer);
  }, [playing, recorder]);

  // Episode progress: tracked from a start's first play, saved as the start ends (another
  // item, a restart), every ~15 s while it plays, and on pause, seek and end (above).
  useEffect(() => {
    if (trackedPlayId.current !== null && trackedPlayId.current !== playId) {
      episodes.finish();
      trackedPlayId.current = null;
    }
    if (playing && current && trackedPlayId.current !== playId) {
      trackedPlayId.current = playId;
      const from = startAt.current?.playId === playId ? startAt.current.at : 0;
      episodes.begin(current, from);
    }
  }, [playId, playing, current, episodes]);

  const isEpisode = current?.kind === 'episode';
  useEffect(() => {
    if (!playing || !isEpisode) return;
    const timer = setInterval(() => episodes.report(), PROGRESS_EVERY_MS);
    return () => clearInterval(timer);
  }, [playing, isEpisode, episodes]);
  useEffect(
    () => () => {
      if (seekSave.current !== null) clearTimeout(seekSave.current);
    },
    [],
  );

  // Premium from the server's subscription check; a failure means free (spec §4).
  const subscription = useSubscription();
  const subscribed = subscription.data?.subscribed === true;
  useEffect(() => dispatch({ type: 'premiumKnown', premium: subscribed }), [subscribed]);
  useEffect(() => {
    if (subscription.isError) console.warn('Subscription check failed', subscription.error);
  }, [subscription.isError, subscription.error]);

  useEffect(() => {
    const timer = setInterval(
      () => dispatch({ type: 'skipClockTicked', at: Date.now() }),
      SKIP_CLOCK_MS,
    );
    return () => clearInterval(timer);
  }, []);

  // Kept across a reload: on every change but progress ticks, which are kept every few
  // seconds while playing, and when the page is hidden or closed.
  const pausedAt = playing ? -1 : progress;
  useEffect(() => {
    if (userId && restoredFor.current === userId) savePlayer(userId, stateRef.current);
  }, [
    userId,
    current,
    queue,
    history,
    shuffle,
    repeat,
    volume,
    muted,
    duration,
    pausedAt,
    state.skipCount,
    state.skipWindowStartedAt,
  ]);
  useEffect(() => {
    if (!userId) return;
    const save = () => {
      if (restoredFor.current === userId) savePlayer(userId, stateRef.current);
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') {
        save();
        recorder.report();
        episodes.report();
      }
    };
    const timer = setInterval(() => {
      if (stateRef.current.playing) save();
    }, SAVE_EVERY_MS);
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', onHide);
    };
  }, [userId, recorder, episodes]);

  // Restore once per signed-in user, paused, then the skip clock starts ticking. After the
  // saving effects: on the first render they must not write the empty state over the saved.
  useEffect(() => {
    if (!userId || restoredFor.current === userId) return;
    restoredFor.current = userId;
    const saved = loadPlayer(userId);
    if (saved) {
      startAt.current = { playId: stateRef.current.playId, at: Number(saved.progress) || 0 };
      dispatch({ type: 'restored', state: saved });
    }
    dispatch({ type: 'skipClockTicked', at: Date.now() });
  }, [userId]);

  // Spec §8: a refused skip shows the toast (each time it is refused).
  useEffect(() => {
    if (skipBlockedAt !== null)
      toast.error(SKIP_LIMIT_TITLE, { description: SKIP_LIMIT_DESCRIPTION });
  }, [skipBlockedAt]);

  const controls = useMemo<PlayerControls>(() => {
    const seek = (seconds: number) => {
      if (!Number.isFinite(seconds)) return;
      recorder.stopped(false);
      engineRef.current?.seek(seconds);
      dispatch({ type: 'seeked', progress: seconds });
      const item = stateRef.current.current as PlayerItem | null;
      showMediaSessionPosition(
        seconds,
        stateRef.current.duration,
        item?.kind === 'episode' ? readRate() : 1,
      );
      if (episodes.episodeId !== null) {
        episodes.moved(seconds);
        if (seekSave.current !== null) clearTimeout(seekSave.current);
        seekSave.current = setTimeout(() => {
          seekSave.current = null;
          episodes.report();
        }, SEEK_SAVE_DELAY_MS);
      }
    };
    return {
      load: (item) => dispatch({ type: 'itemLoaded', item }),
      toggle: () => dispatch({ type: 'playToggled' }),
      seek,
      setVolume: (v) => dispatch({ type: 'volumeChanged', volume: v }),
      toggleMute: () => dispatch({ type: 'muteToggled' }),
      next: () => dispatch({ type: 'nextRequested', at: Date.now() }),
      previous: () => dispatch({ type: 'previousRequested', at: Date.now() }),
      cycleRepeat: () => dispatch({ type: 'repeatCycled' }),
      toggleShuffle: () => dispatch({ type: 'shuffleToggled', random: Math.random }),
      addToQueue: (items) => dispatch({ type: 'queued', items }),
      removeFromQueue: (index) => dispatch({ type: 'queueItemRemoved', index }),
      moveInQueue: (from, to) => dispatch({ type: 'queueItemMoved', from, to }),
      clearQueue: () => dispatch({ type: 'queueCleared' }),
      playFromQueue: (index) => dispatch({ type: 'queueItemPlayed', index }),
      setNormalization,
      skipBy: (seconds) => {
        const { progress: at, duration: length, current: item } = stateRef.current;
        if (!item || !Number.isFinite(seconds)) return;
        const end = length > 0 ? length : Number.POSITIVE_INFINITY;
        seek(Math.min(Math.max(at + seconds, 0), end));
      },
      setPlaybackRate,
    };
  }, [recorder, episodes]);

  // Keyboard shortcuts, page-wide; player-shortcuts.ts says when they stay quiet.
  useEffect(() => {
    const run: Record<ShortcutAction, () => void> = {
      toggle: controls.toggle,
      next: controls.next,
      previous: controls.previous,
      mute: controls.toggleMute,
      skipBack: () => controls.skipBy(-SKIP_BACK_SECONDS),
      skipForward: () => controls.skipBy(SKIP_FORWARD_SECONDS),
    };
    const onKey = (e: KeyboardEvent) => {
      const item = stateRef.current.current as PlayerItem | null;
      if (!item) return;
      const action = shortcutFor(e, describeTarget(e.target), item.kind === 'episode');
      if (!action) return;
      e.preventDefault();
      run[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controls]);

  // Media Session: lock screen and hardware keys.
  useEffect(
    () =>
      bindMediaSession({
        play: () => {
          if (!stateRef.current.playing) controls.toggle();
        },
        pause: () => {
          if (stateRef.current.playing) controls.toggle();
        },
        next: controls.next,
        previous: controls.previous,
        seek: controls.seek,
        skipBy: isEpisode
          ? { back: SKIP_BACK_SECONDS, forward: SKIP_FORWARD_SECONDS, run: controls.skipBy }
          : undefined,
      }),
    [controls, isEpisode],
  );
  useEffect(() => showMediaSessionItem(current), [current]);
  useEffect(() => showMediaSessionState(current ? playing : null), [current, playing]);
  const rate = isEpisode ? playbackRate : 1;
  useEffect(
    () => showMediaSessionPosition(stateRef.current.progress, duration, rate),
    [duration, playing, playId, rate],
  );

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
  );
}
