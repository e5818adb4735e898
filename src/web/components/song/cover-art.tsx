// A cover picture (spec §2: cover art, else /placeholder.svg), the same on cards, rows, the
// queue and the player bar. Decorative: the title beside it names the item.
import { fallbackCover, PLACEHOLDER_COVER } from './song-display.ts';

export function CoverArt({
  src,
  className,
  lazy = true,
  alt = '',
}: {
  src: string | null | undefined;
  className?: string;
  /** Empty (decorative) where the title is beside it; a name where the picture stands alone. */
  alt?: string;
  /** Off where the picture is on screen at once (the player bar). */
  lazy?: boolean;
}) {
  return (
    <img
      src={src || PLACEHOLDER_COVER}
      alt={alt}
      loading={lazy ? 'lazy' : undefined}
      onError={fallbackCover}
      className={className}
    />
  );
}
