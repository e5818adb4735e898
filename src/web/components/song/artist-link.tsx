// Listeners reach an artist's profile from the artist name on song cards, rows and the
// player bar. Plain text when the song has no stored artist (an external catalogue track).
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/web/components/ui/cn.ts';

export function ArtistLink({
  artistId,
  children,
  className,
}: {
  artistId: string | null | undefined;
  /** The name as shown (e.g. the catalogue's artistLabel). */
  children: ReactNode;
  className?: string;
}) {
  if (!artistId) return <span className={className}>{children}</span>;
  return (
    <Link
      to={`/profile/${artistId}`}
      className={cn(
        'rounded-sm underline-offset-2 outline-none hover:text-foreground hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring/60',
        className,
      )}
      // Inside a clickable card or row, the link is the only thing this click does.
      onClick={(e) => e.stopPropagation()}
    >
      {children}
    </Link>
  );
}
