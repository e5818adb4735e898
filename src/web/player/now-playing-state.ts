// Whether the full-screen now-playing view is open (phones, from the mini player). It lives in
// the history entry's state, so the browser's or the phone's Back closes it like a page, and a
// route change (an artist link inside it) leaves it closed.
import { useLocation, useNavigate } from 'react-router';

type ViewState = { nowPlaying?: boolean } | null;

export function useNowPlayingView(): { open: boolean; show(): void; close(): void } {
  const location = useLocation();
  const navigate = useNavigate();
  const open = (location.state as ViewState)?.nowPlaying === true;
  return {
    open,
    show() {
      if (open) return;
      const { pathname, search, hash } = location;
      void navigate({ pathname, search, hash }, { state: { nowPlaying: true } });
    },
    close() {
      // The entry that opened it is the one before: going back closes it and keeps Forward.
      if (open) void navigate(-1);
    },
  };
}
