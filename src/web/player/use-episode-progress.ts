// Episode progress in the provider: a new start of an episode resumes it where it was left; it
// is tracked from the start's first play and saved as the start ends (another item, a restart),
// every ~15 s while an episode plays, when the page is hidden, and (through what this returns)
// on pause, seek and end. Each save is told on the playback events,
// where the podcasts' cache hears of it. The bookkeeping is EpisodeProgressReporter's.
import { useCallback, useEffect, useState } from 'react';
import { podcastsApi } from '@/contracts/api/podcasts.api.ts';
import { api } from '@/web/lib/api-client.ts';
import {
  EpisodeProgressReporter,
  PROGRESS_EVERY_MS,
  type EpisodeProgressApi,
} from './episode-progress.ts';
import type { PlaybackEvents } from './playback-events.ts';
import { StartFollower, type StartPoints, type StartView } from './play-starts.ts';
import { usePageHidden } from './use-page-hidden.ts';
import type { PlayerItem } from './use-player.ts';

const episodeProgressApi: EpisodeProgressApi = {
  save: (episodeId, body) => api(podcastsApi.saveProgress, { params: { id: episodeId }, body }),
};

export function useEpisodeProgress(
  { playId, playing, current }: StartView<PlayerItem>,
  /** Where starts begin; a new start of an episode resumes it where it was left. */
  points: StartPoints,
  events: PlaybackEvents,
): EpisodeProgressReporter {
  const [progress] = useState(() => {
    const reporter = new EpisodeProgressReporter(episodeProgressApi, (saved) =>
      events.emit('episodeProgressSaved', saved),
    );
    return { reporter, starts: new StartFollower<PlayerItem>(reporter) };
  });
  const { reporter, starts } = progress;

  useEffect(() => {
    points.showing(current, playId, () => (current ? reporter.resumeAt(current) : 0));
    starts.seen({ playId, playing, current }, () => points.of(playId));
  }, [playId, playing, current, points, reporter, starts]);

  const isEpisode = current?.kind === 'episode';
  useEffect(() => {
    if (!playing || !isEpisode) return;
    const timer = setInterval(() => reporter.report(), PROGRESS_EVERY_MS);
    return () => clearInterval(timer);
  }, [playing, isEpisode, reporter]);

  usePageHidden(useCallback(() => reporter.report(), [reporter]));
  useEffect(() => () => reporter.dispose(), [reporter]);

  return reporter;
}
