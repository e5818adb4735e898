// The lyrics panel as the shell mounts it: nothing until the bar's Lyrics button opens it,
// then the view, for the item playing now.
import { lazy, Suspense } from 'react';
import { useLyricsPanel } from './lyrics-panel-state.ts';
import { useNowPlaying } from './use-player.ts';

const LyricsPanelView = lazy(() =>
  import('./lyrics-panel-view.tsx').then((m) => ({ default: m.LyricsPanelView })),
);

export function LyricsPanel() {
  const { open, setOpen } = useLyricsPanel();
  const { current } = useNowPlaying();
  // Episodes have no lyrics (nor a Lyrics button): the panel waits for the next song.
  if (!open || current?.kind !== 'song') return null;
  return (
    <Suspense fallback={null}>
      <LyricsPanelView item={current} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
