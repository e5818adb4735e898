// Profiles, follows and the following list (spec §2 Profile and Following, §4 follow and
// profile edit, §8 messages). Toasts live in the mutations, so they still show after the
// component that started them has gone (an unfollowed card leaves the list at once).
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { toast } from 'sonner';
import { socialApi } from '@/contracts/api/social.api.ts';
import {
  AVATAR_FIELD,
  type FollowingList,
  type ProfileDto,
  type UpdateProfileBody,
} from '@/contracts/social.contract.ts';
import { profileMessages } from '@/core/validation/profile.rules.ts';
import { api, errorMessage, isApiError } from '@/web/lib/api-client.ts';
import { sessionKey } from '@/web/session/use-session.ts';

export const socialKeys = {
  profile: (userId: string) => ['profiles', userId] as const,
  songs: (userId: string) => ['profiles', userId, 'songs'] as const,
  following: ['me', 'following'] as const,
};

// One id for the social toasts: a run of follows and unfollows updates one toast. A failure's
// title is the spec's; its description, the server's own words when it refused.
const TOAST_ID = 'social';

/** A 4xx will not change by asking again (a missing profile, a malformed id). */
const retryUnlessRefused = (count: number, e: unknown) =>
  !(isApiError(e) && e.status >= 400 && e.status < 500) && count < 2;

/** True when the profile cannot exist: 404, or an id that is not one (400). */
export const isMissingProfile = (e: unknown): boolean =>
  isApiError(e) && (e.status === 404 || e.status === 400);

export function useProfile(userId: string | undefined) {
  return useQuery({
    queryKey: socialKeys.profile(userId ?? ''),
    queryFn: ({ signal }) => api(socialApi.profile, { params: { userId: userId! }, signal }),
    enabled: !!userId,
    retry: retryUnlessRefused,
  });
}

export function useProfileSongs(userId: string | undefined) {
  return useInfiniteQuery({
    queryKey: socialKeys.songs(userId ?? ''),
    queryFn: ({ signal, pageParam }) =>
      api(socialApi.profileSongs, {
        params: { userId: userId! },
        query: { cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: !!userId,
    retry: retryUnlessRefused,
  });
}

export function useFollowing() {
  return useInfiniteQuery({
    queryKey: socialKeys.following,
    queryFn: ({ signal, pageParam }) =>
      api(socialApi.following, { query: { cursor: pageParam ?? undefined }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/**
 * Follow or unfollow from a profile (spec §4): the button and the follower count change at
 * once (never below 0) and go back if the server refuses; its answer then sets both.
 */
export function useFollowToggle(userId: string, viewerId: string | undefined) {
  const client = useQueryClient();
  const key = socialKeys.profile(userId);
  return useMutation({
    mutationFn: (follow: boolean) =>
      api(follow ? socialApi.follow : socialApi.unfollow, { params: { userId } }),
    onMutate: async (follow) => {
      await client.cancelQueries({ queryKey: key, exact: true });
      const before = client.getQueryData<ProfileDto>(key);
      if (before && before.is_following !== follow) {
        client.setQueryData<ProfileDto>(key, {
          ...before,
          is_following: follow,
          follower_count: Math.max(0, before.follower_count + (follow ? 1 : -1)),
        });
      }
      return { before };
    },
    onSuccess: (state, follow) => {
      client.setQueryData<ProfileDto>(key, (p) =>
        p ? { ...p, is_following: state.is_following, follower_count: state.follower_count } : p,
      );
      toast.success(follow ? profileMessages.followed : profileMessages.unfollowed, {
        id: TOAST_ID,
      });
    },
    onError: (e, _follow, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      toast.error(profileMessages.followFailed, {
        id: TOAST_ID,
        description: errorMessage(e, null),
      });
    },
    onSettled: () => {
      // The list on /following and the caller's own following count.
      void client.invalidateQueries({ queryKey: socialKeys.following });
      if (viewerId)
        void client.invalidateQueries({ queryKey: socialKeys.profile(viewerId), exact: true });
    },
  });
}

/** Unfollow from /following: the card leaves at once and comes back if the server refuses. */
export function useUnfollowFromList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api(socialApi.unfollow, { params: { userId } }),
    onMutate: async (userId) => {
      await client.cancelQueries({ queryKey: socialKeys.following });
      const before = client.getQueryData<InfiniteData<FollowingList>>(socialKeys.following);
      if (before) {
        client.setQueryData<InfiniteData<FollowingList>>(socialKeys.following, {
          ...before,
          pages: before.pages.map((page) => ({
            ...page,
            total: Math.max(0, page.total - 1),
            items: page.items.filter((i) => i.user_id !== userId),
          })),
        });
      }
      return { before };
    },
    onSuccess: () => {
      toast.success(profileMessages.unfollowedFromList, { id: TOAST_ID });
    },
    onError: (e, _userId, context) => {
      if (context?.before) client.setQueryData(socialKeys.following, context.before);
      toast.error(profileMessages.unfollowFailed, {
        id: TOAST_ID,
        description: errorMessage(e, null),
      });
    },
    onSettled: (_data, _error, userId) => {
      void client.invalidateQueries({ queryKey: socialKeys.profile(userId), exact: true });
    },
  });
}

export type ProfileEdit = UpdateProfileBody & { avatar: File | null };

/**
 * Save Changes (spec §4 profile edit): the chosen image first (it is the part most likely to
 * be refused, and nothing else has changed by then), then the name and bio.
 */
export function useUpdateProfile(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ avatar, ...fields }: ProfileEdit) => {
      if (avatar) {
        const form = new FormData();
        form.append(AVATAR_FIELD, avatar);
        await api(socialApi.replaceAvatar, { body: form });
      }
      return api(socialApi.updateProfile, { body: fields });
    },
    onSuccess: (profile) => {
      client.setQueryData(socialKeys.profile(userId), profile);
      // The sidebar shows the display name from the session.
      void client.invalidateQueries({ queryKey: sessionKey });
      toast.success(profileMessages.updated, { id: TOAST_ID });
    },
    onError: (e) => {
      // An avatar may have been saved before the name failed: show what the server has.
      void client.invalidateQueries({ queryKey: socialKeys.profile(userId), exact: true });
      toast.error(profileMessages.updateFailed, {
        id: TOAST_ID,
        description: errorMessage(e, null),
      });
    },
  });
}
