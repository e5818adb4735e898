// Spec §2 Profile (/profile own, /profile/{userId} any): avatar, name or 'Anonymous User',
// follower and following counts, bio; Edit Profile on one's own, Follow/Unfollow on
// another's; tabs Songs and Stats. Names and bios are rendered as text, never as HTML.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Music, Pencil, Radio, ShieldCheck, UserRoundX } from 'lucide-react';
import type { ProfileDto } from '@/contracts/social.contract.ts';
import {
  followerCountLabel,
  profileMessages,
  profileName,
} from '@/core/validation/profile.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { useSession } from '@/web/session/use-session.ts';
import { SongCardSkeleton, songGridClass } from '@/web/components/song/song-card.tsx';
import { SongCardWithActions } from '@/web/features/catalogue/index.ts';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { TipButton, useTipReturn } from '@/web/features/tips/index.ts';
import { ProfileEditForm } from './profile-edit-form.tsx';
import { UserAvatar } from './user-avatar.tsx';
import { isMissingProfile, useFollowToggle, useProfile, useProfileSongs } from './use-social.ts';

const SONG_SKELETONS = 6;

/** Member Since as month-year (spec §2 Stats), e.g. 'March 2025'. */
const monthYear = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });

function FollowButton({ profile, viewerId }: { profile: ProfileDto; viewerId?: string }) {
  const toggle = useFollowToggle(profile.user_id, viewerId);
  const following = profile.is_following;
  return (
    <Button
      variant={following ? 'outline' : 'brand'}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate(!following)}
    >
      {following ? 'Unfollow' : 'Follow'}
    </Button>
  );
}

function ProfileHeader({ profile, viewerId }: { profile: ProfileDto; viewerId?: string }) {
  const [editing, setEditing] = useState(false);
  const name = profileName(profile.display_name);
  if (editing) {
    return (
      <div className="rounded-2xl border bg-card/60 p-6">
        <ProfileEditForm profile={profile} onDone={() => setEditing(false)} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-6 rounded-2xl border bg-card/60 p-6 sm:flex-row sm:items-start">
      <UserAvatar
        src={profile.avatar_url}
        name={profile.display_name}
        className="size-28 text-4xl shadow-lg"
      />
      <div className="min-w-0 flex-1 text-center sm:text-left">
        <h2 className="text-2xl font-bold tracking-tight break-words">{name}</h2>
        <p className="mt-1 flex flex-wrap justify-center gap-x-4 text-sm text-muted-foreground sm:justify-start">
          <span data-testid="follower-count">{followerCountLabel(profile.follower_count)}</span>
          <span data-testid="following-count">{profile.following_count} following</span>
        </p>
        {profile.bio && (
          <p className="mt-3 break-words whitespace-pre-line text-muted-foreground">
            {profile.bio}
          </p>
        )}
      </div>
      <div className="shrink-0">
        {profile.is_own ? (
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" />
              Edit Profile
            </Button>
            <ShareButton kind="profile" id={profile.user_id} title={name} />
            {/* Two-step sign-in and passkeys live there. */}
            <Button asChild variant="outline">
              <Link to="/settings/security">
                <ShieldCheck aria-hidden="true" />
                Security
              </Link>
            </Button>
            {/* ListenBrainz and Last.fm connections. */}
            <Button asChild variant="outline">
              <Link to="/settings/scrobbling">
                <Radio aria-hidden="true" />
                Scrobbling
              </Link>
            </Button>
          </div>
        ) : (
          <div className="flex flex-wrap justify-center gap-2">
            <FollowButton profile={profile} viewerId={viewerId} />
            {/* Artists only; the server refuses anyone else (and oneself) too. */}
            {profile.is_artist && viewerId && (
              <TipButton artistId={profile.user_id} artistName={name} />
            )}
            <ShareButton kind="profile" id={profile.user_id} title={name} />
          </div>
        )}
      </div>
    </div>
  );
}

function ProfileSongsTab({ profile }: { profile: ProfileDto }) {
  const { isArtist } = useSession();
  const songs = useProfileSongs(profile.user_id);
  const list = songs.data?.pages.flatMap((p) => p.songs) ?? [];
  return (
    <section aria-labelledby="profile-songs-heading" aria-busy={songs.isPending}>
      <h3 id="profile-songs-heading" className="mb-4 text-lg font-semibold">
        Uploaded Songs ({profile.song_count})
      </h3>
      {songs.isPending ? (
        <div className={songGridClass} data-testid="profile-songs-loading">
          {Array.from({ length: SONG_SKELETONS }, (_, i) => (
            <SongCardSkeleton key={i} />
          ))}
        </div>
      ) : songs.isError ? (
        <LoadFailed
          message="Failed to load songs"
          retrying={songs.isFetching}
          onRetry={() => void songs.refetch()}
        />
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Music className="size-8" aria-hidden="true" />
          <p>{profileMessages.noSongs}</p>
          {profile.is_own && isArtist && (
            <Button asChild variant="brand">
              <Link to="/upload">{profileMessages.uploadFirst}</Link>
            </Button>
          )}
        </div>
      ) : (
        <>
          <ul className={songGridClass}>
            {list.map((song) => (
              <li key={song.id}>
                <SongCardWithActions song={song} />
              </li>
            ))}
          </ul>
          {songs.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button
                variant="outline"
                disabled={songs.isFetchingNextPage}
                onClick={() => void songs.fetchNextPage()}
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

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border bg-card/60 p-5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight">{value}</dd>
    </div>
  );
}

function ProfileStatsTab({ profile }: { profile: ProfileDto }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      <Stat label="Total Plays" value={profile.total_plays.toLocaleString('en-US')} />
      <Stat label="Total Songs" value={profile.song_count.toLocaleString('en-US')} />
      <Stat label="Member Since" value={monthYear(profile.member_since)} />
    </dl>
  );
}

function ProfileSkeleton() {
  return (
    <div
      className="flex flex-col items-center gap-6 rounded-2xl border bg-card/60 p-6 sm:flex-row"
      data-testid="profile-loading"
      aria-hidden="true"
    >
      <Skeleton className="size-28 rounded-full" />
      <div className="w-full flex-1 space-y-3">
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-4 w-full max-w-md" />
      </div>
    </div>
  );
}

export default function ProfilePage() {
  const params = useParams<{ userId: string }>();
  const viewerId = useSession().user?.id;
  const userId = params.userId ?? viewerId;
  const { data: profile, isPending, error, refetch, isFetching } = useProfile(userId);
  useTipReturn();

  let body;
  if (isPending) body = <ProfileSkeleton />;
  else if (error && isMissingProfile(error))
    body = (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed px-6 py-16 text-center">
        <UserRoundX className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="text-lg font-semibold">{profileMessages.notFound}</p>
      </div>
    );
  else if (error || !profile)
    body = (
      <LoadFailed
        message={profileMessages.loadFailed}
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  else
    body = (
      <>
        {/* Keyed by user: moving to another profile leaves no edit form open. */}
        <ProfileHeader key={profile.user_id} profile={profile} viewerId={viewerId} />
        <Tabs defaultValue="songs" className="mt-8">
          <TabsList aria-label="Profile sections">
            <TabsTrigger value="songs">Songs</TabsTrigger>
            <TabsTrigger value="stats">Stats</TabsTrigger>
          </TabsList>
          <TabsContent value="songs" className="@container">
            <ProfileSongsTab profile={profile} />
          </TabsContent>
          <TabsContent value="stats">
            <ProfileStatsTab profile={profile} />
          </TabsContent>
        </Tabs>
      </>
    );

  return (
    <section aria-label="Profile" aria-busy={isPending} className="mx-auto max-w-5xl">
      {body}
    </section>
  );
}
