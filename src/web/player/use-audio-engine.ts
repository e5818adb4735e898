// The one audio engine, driven by the machine: it lives as long as the provider, loads the
// current item (and follows it: new file, new gain, new speed), plays or pauses as the machine
// wants, preloads what comes next, and its events flow back as machine events and to the
// stream recorder and the episode progress reporter. An item whose media URLs expired is
// fetched again once per start (fresh-media.ts) and goes on from the same position.
import { useCallback, useEffect, useRef, useState, type Dispatch, type RefObject } from 'react';
import { podcastsApi } from '@/contracts/api/podcasts.api.ts';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { PlayerEvent, PlayerState } from '@/core/player/player-machine.ts';
import { api } from '@/web/lib/api-client.ts';
import { AudioEngine } from './audio-engine.ts';
import { trackOf } from './engine-track.ts';
import { useDownloadedSource } from './use-downloaded-source.ts';
import type { EpisodeProgressReporter } from './episode-progress.ts';
import { FreshMedia, type MediaFetch } from './fresh-media.ts';
import { useNormalizationSetting } from './normalization-setting.ts';
import { usePlaybackRateSetting } from './playback-rate.ts';
import type { StartPoints } from './play-starts.ts';
import type { StreamRecorder } from './stream-recorder.ts';
import { useQuality } from './use-quality.ts';
import type { PlayerItem } from './use-player.ts';

const mediaFetch: MediaFetch = {
  podcast: (podcastId) => api(podcastsApi.get, { params: { id: podcastId } }),
  song: (songId) => api(songsApi.get, { params: { id: songId } }),
};

export interface EngineFollowers {
  recorder: StreamRecorder;
  episodes: EpisodeProgressReporter;
  points: StartPoints;
}

export interface AudioEngineHandle {
  /** The engine while there is one (a seek moves it). */
  engineRef: RefObject<AudioEngine | null>;
  /**
   * Loads and plays `item` as start `playId` now, inside the click, before React renders the
   * new state: the media request leaves at once instead of after the render (ADR 0015). The
   * render's effects then find the same start and leave it alone.
   */
  prime(item: PlayerItem, playId: number): void;
}

export function useAudioEngine(
  hostRef: RefObject<HTMLDivElement | null>,
  state: PlayerState,
  stateRef: RefObject<PlayerState>,
  dispatch: Dispatch<PlayerEvent>,
  { recorder, episodes, points }: EngineFollowers,
): AudioEngineHandle {
  const engineRef = useRef<AudioEngine | null>(null);
  const [fresh] = useState(() => new FreshMedia(mediaFetch));
  const [refreshed, setRefreshed] = useState(0);
  const quality = useQuality();
  const normalization = useNormalizationSetting();
  const playbackRate = usePlaybackRateSetting();
  const { playing, volume, muted, queue, repeat, playId } = state;
  const current = state.current as PlayerItem | null;
  const downloaded = useDownloadedSource();
  const settings = useRef({ quality, normalization, playbackRate, downloaded });
  settings.current = { quality, normalization, playbackRate, downloaded };

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    /** Fetched again once per start; on it goes from the same position with the new URLs. */
    const refreshExpired = async (resume: boolean) => {
      const s = stateRef.current;
      if (!(await fresh.refresh(s.current as PlayerItem | null, s.playId))) return;
      points.keep(s.playId, s.progress);
      setRefreshed((n) => n + 1);
      if (resume) dispatch({ type: 'playbackStarted' });
    };
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
  }, [hostRef, stateRef, dispatch, recorder, episodes, points, fresh]);

  // The current item: loaded (or followed: new file, new gain, new speed) on each change.
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine) return;
    if (!current) return engine.clear();
    const track = trackOf(fresh.mediaOf(current), {
      quality,
      normalization,
      rate: playbackRate,
      canPlayType: (m) => engine.canPlayType(m),
      downloaded,
    });
    engine.show(track, playId, points.of(playId));
  }, [current, playId, quality, normalization, playbackRate, refreshed, fresh, points, downloaded]);

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
  const upNext = queuedNext && episodes.resumeAt(queuedNext) > 0 ? null : queuedNext;
  useEffect(() => {
    const engine = engineRef.current;
    if (!engine) return;
    engine.preload(
      upNext
        ? trackOf(fresh.mediaOf(upNext), {
            quality,
            normalization,
            rate: playbackRate,
            canPlayType: (m) => engine.canPlayType(m),
            downloaded,
          })
        : null,
    );
  }, [upNext, playId, quality, normalization, playbackRate, refreshed, fresh, downloaded]);

  const prime = useCallback(
    (item: PlayerItem, startId: number) => {
      const engine = engineRef.current;
      if (!engine) return;
      const { quality: q, normalization: n, playbackRate: rate } = settings.current;
      const track = trackOf(fresh.mediaOf(item), {
        quality: q,
        normalization: n,
        rate,
        canPlayType: (m) => engine.canPlayType(m),
        downloaded: settings.current.downloaded,
      });
      engine.show(track, startId, points.of(startId));
      engine.play();
    },
    [fresh, points],
  );

  return { engineRef, prime };
}
