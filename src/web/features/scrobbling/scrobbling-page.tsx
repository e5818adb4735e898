import { useEffect } from 'react';
import { ScrobblingCard } from '@/web/features/scrobbling/scrobbling-card.tsx';

/** Settings › Scrobbling: the listener's ListenBrainz and Last.fm connections. */
export default function ScrobblingPage() {
  useEffect(() => {
    document.title = 'Scrobbling · Canto';
  }, []);
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      {/* The top bar carries the screen's h1 ('Scrobbling'). */}
      <p className="text-muted-foreground">Your plays on ListenBrainz and Last.fm.</p>
      <ScrobblingCard />
    </div>
  );
}
