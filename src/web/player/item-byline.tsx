// Who the current item is by: its show for an episode, its artist for a song; the bar and the
// now-playing view both show it.
import { Link } from 'react-router';
import { ArtistLink } from '@/web/components/song/artist-link.tsx';
import type { PlayerItem } from './use-player.ts';

export function ItemByline({ item }: { item: PlayerItem }) {
  return item.kind === 'episode' && item.podcastId ? (
    <Link
      to={`/podcasts?show=${item.podcastId}`}
      className="rounded-sm underline-offset-2 outline-none hover:text-foreground hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring/60"
    >
      {item.podcastTitle}
    </Link>
  ) : (
    <ArtistLink artistId={item.artistId}>{item.podcastTitle}</ArtistLink>
  );
}
