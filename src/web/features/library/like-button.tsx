// The Like toggle (spec §4, §8 Player and likes) for song cards, list rows and the player bar.
import { Heart } from 'lucide-react';
import { cn } from '@/web/components/ui/cn.ts';
import { useSession } from '@/web/session/use-session.ts';
import { isLikeable, signInToLike, useLikedIds, useToggleLike } from './use-likes.ts';

/** Nothing for a song that cannot be liked (an external catalogue track). */
export function LikeButton({
  songId,
  title,
  className,
  unlikeMessage,
}: {
  songId: string;
  title: string;
  className?: string;
  /** Replaces 'Removed from liked songs' (the /liked page's own message). */
  unlikeMessage?: string;
}) {
  const signedIn = useSession().status === 'signed-in';
  const liked = useLikedIds().has(songId);
  const toggle = useToggleLike();
  if (!isLikeable(songId)) return null;

  return (
    <button
      type="button"
      // Named as people say it; the pressed state says whether it is liked, the title whose.
      aria-label="Like"
      aria-pressed={liked}
      title={`${liked ? 'Unlike' : 'Like'} ${title}`}
      disabled={toggle.isPending}
      onClick={() => {
        if (!signedIn) return signInToLike();
        toggle.mutate({ songId, like: !liked, title, unlikeMessage });
      }}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70 disabled:cursor-wait disabled:opacity-60',
        liked && 'text-primary hover:text-primary',
        className,
      )}
    >
      <Heart className={cn('size-4', liked && 'fill-current')} aria-hidden="true" />
    </button>
  );
}
