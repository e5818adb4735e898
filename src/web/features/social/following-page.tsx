// Spec §2 Following: heading 'Following' and the count, a card per followed user (avatar,
// name, bio, follower and song counts, Unfollow); the avatar or the name opens their
// profile. 4 skeletons while loading; 'Not following anyone yet' with 'Browse Artists'.
import { Link } from 'react-router';
import { Users } from 'lucide-react';
import type { FollowedUser } from '@/contracts/social.contract.ts';
import {
  followerCountLabel,
  profileLimits,
  profileMessages,
  profileName,
} from '@/core/validation/profile.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { UserAvatar } from './user-avatar.tsx';
import { useFollowing, useUnfollowFromList } from './use-social.ts';

const gridClass = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3';

function FollowedCard({ user }: { user: FollowedUser }) {
  const unfollow = useUnfollowFromList();
  const name = profileName(user.display_name);
  const to = `/profile/${user.user_id}`;
  return (
    <article
      className="flex h-full flex-col gap-3 rounded-xl border bg-card/60 p-4"
      data-testid="followed-user"
    >
      <div className="flex items-start gap-3">
        {/* The name is the link people tab to; the avatar is the same link for the mouse. */}
        <Link to={to} tabIndex={-1} aria-hidden="true" className="shrink-0">
          <UserAvatar src={user.avatar_url} name={user.display_name} className="size-14 text-xl" />
        </Link>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold" title={name}>
            <Link
              to={to}
              className="rounded-sm outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring/60"
            >
              {name}
            </Link>
          </h3>
          <p className="text-sm text-muted-foreground">
            {followerCountLabel(user.follower_count)} ·{' '}
            {`${user.song_count} ${user.song_count === 1 ? 'song' : 'songs'}`}
          </p>
        </div>
      </div>
      {user.bio && (
        <p className="line-clamp-3 text-sm break-words whitespace-pre-line text-muted-foreground">
          {user.bio}
        </p>
      )}
      <Button
        variant="outline"
        size="sm"
        className="mt-auto self-start"
        aria-label={`Unfollow ${name}`}
        disabled={unfollow.isPending}
        onClick={() => unfollow.mutate(user.user_id)}
      >
        Unfollow
      </Button>
    </article>
  );
}

function FollowedCardSkeleton() {
  return (
    <div className="flex flex-col gap-3 rounded-xl border bg-card/60 p-4" aria-hidden="true">
      <div className="flex items-center gap-3">
        <Skeleton className="size-14 rounded-full" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-3 w-40" />
        </div>
      </div>
      <Skeleton className="h-3 w-full" />
      <Skeleton className="h-8 w-24" />
    </div>
  );
}

export default function FollowingPage() {
  const following = useFollowing();
  const pages = following.data?.pages ?? [];
  const users = pages.flatMap((p) => p.items);
  const total = pages[0]?.total ?? 0;

  return (
    <section
      aria-labelledby="following-heading"
      aria-busy={following.isPending}
      className="mx-auto max-w-5xl"
    >
      <div className="mb-6 flex items-baseline gap-3">
        <h2 id="following-heading" className="text-xl font-bold tracking-tight">
          Following
        </h2>
        {following.isSuccess && (
          <p className="text-sm text-muted-foreground" data-testid="following-count">
            {total} {total === 1 ? 'artist' : 'artists'}
          </p>
        )}
      </div>
      {following.isPending ? (
        <div className={gridClass} data-testid="following-loading">
          {Array.from({ length: profileLimits.followingSkeletons }, (_, i) => (
            <FollowedCardSkeleton key={i} />
          ))}
        </div>
      ) : following.isError ? (
        <LoadFailed
          message={profileMessages.followingLoadFailed}
          retrying={following.isFetching}
          onRetry={() => void following.refetch()}
        />
      ) : users.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Users className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">{profileMessages.notFollowing}</p>
          <Button asChild variant="brand">
            <Link to="/browse">{profileMessages.browseArtists}</Link>
          </Button>
        </div>
      ) : (
        <>
          <ul className={gridClass}>
            {users.map((user) => (
              <li key={user.user_id}>
                <FollowedCard user={user} />
              </li>
            ))}
          </ul>
          {following.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button
                variant="outline"
                disabled={following.isFetchingNextPage}
                onClick={() => void following.fetchNextPage()}
              >
                Show more
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
