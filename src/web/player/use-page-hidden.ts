// What must be saved or reported before the tab is put away: a page turning hidden is the last
// event a browser reliably gives (mobile browsers often kill a hidden tab without pagehide).
import { useEffect } from 'react';

/** Runs `run` each time the page turns hidden; pass a stable function (useCallback). */
export function usePageHidden(run: () => void): void {
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') run();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => document.removeEventListener('visibilitychange', onHide);
  }, [run]);
}
