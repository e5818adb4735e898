// Notifications (spec §2 Notifications and the menu, §4 Notification, §8 messages). The bell
// and the screen read the same cached lists (All and Unread), which every change below and
// every live arrival updates in place; toasts live in the mutations, so they still show after
// the row that started them has gone.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { notificationsApi } from '@/contracts/api/notifications.api.ts';
import type { NotificationDto, NotificationList } from '@/contracts/notifications.contract.ts';
import {
  lessUnread,
  notificationLimits,
  notificationMessages,
} from '@/core/validation/notification.rules.ts';
import { api } from '@/web/lib/api-client.ts';

export type NotificationFilter = 'all' | 'unread';

export const notificationsKeys = {
  all: ['me', 'notifications'] as const,
  list: (filter: NotificationFilter) => ['me', 'notifications', filter] as const,
};

// One id for the action toasts: a run of deletes updates one toast rather than stacking them.
const TOAST_ID = 'notifications';

export function useNotificationList(filter: NotificationFilter) {
  return useQuery({
    queryKey: notificationsKeys.list(filter),
    queryFn: ({ signal }) =>
      api(notificationsApi.list, {
        query: { unread: filter === 'unread' ? 'true' : undefined },
        signal,
      }),
  });
}

/** Applies `change` to both cached lists (whichever are cached). */
function updateLists(
  qc: QueryClient,
  change: (list: NotificationList, filter: NotificationFilter) => NotificationList,
) {
  for (const filter of ['all', 'unread'] as const) {
    qc.setQueryData<NotificationList>(notificationsKeys.list(filter), (list) =>
      list ? change(list, filter) : list,
    );
  }
}

const newestFirst = (a: NotificationDto, b: NotificationDto) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/**
 * A notification that just arrived live (spec §4): on top, the list kept to 10, the unread
 * count raised. One already listed (the catch-up fetch raced the push) changes nothing.
 */
export function addLiveNotification(qc: QueryClient, item: NotificationDto): void {
  updateLists(qc, (list, filter) => {
    if (list.items.some((n) => n.id === item.id)) return list;
    const counted = {
      ...list,
      unread_count: list.unread_count + (item.read ? 0 : 1),
      total: list.total + 1,
    };
    if (filter === 'unread' && item.read) return counted;
    return {
      ...counted,
      items: [item, ...list.items].sort(newestFirst).slice(0, notificationLimits.kept),
    };
  });
}

/** Opening one marks it read (spec §4); a failure is only logged (spec §8). */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(notificationsApi.markRead, { params: { id } }),
    onMutate: (id) => {
      const cached = (['all', 'unread'] as const).flatMap(
        (filter) => qc.getQueryData<NotificationList>(notificationsKeys.list(filter))?.items ?? [],
      );
      const target = cached.find((n) => n.id === id);
      if (!target || target.read) return;
      updateLists(qc, (list, filter) => ({
        ...list,
        unread_count: lessUnread(list.unread_count),
        items:
          filter === 'unread'
            ? list.items.filter((n) => n.id !== id)
            : list.items.map((n) => (n.id === id ? { ...n, read: true } : n)),
      }));
    },
    onError: (e) => {
      console.error(notificationMessages.markReadFailed, e);
      void qc.invalidateQueries({ queryKey: notificationsKeys.all });
    },
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(notificationsApi.markAllRead),
    onSuccess: () => {
      updateLists(qc, (list, filter) => ({
        ...list,
        unread_count: 0,
        items: filter === 'unread' ? [] : list.items.map((n) => ({ ...n, read: true })),
      }));
      toast.success(notificationMessages.allMarkedRead, { id: TOAST_ID });
    },
    onError: () => toast.error(notificationMessages.markAllFailed, { id: TOAST_ID }),
  });
}

export function useDeleteNotification() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (item: NotificationDto) =>
      api(notificationsApi.remove, { params: { id: item.id } }),
    onSuccess: (_data, item) => {
      updateLists(qc, (list) => ({
        ...list,
        items: list.items.filter((n) => n.id !== item.id),
        unread_count: item.read ? list.unread_count : lessUnread(list.unread_count),
        total: lessUnread(list.total),
      }));
      toast.success(notificationMessages.deleted, { id: TOAST_ID });
      // The next older one moves up into the 10.
      void qc.invalidateQueries({ queryKey: notificationsKeys.all });
    },
    onError: () => toast.error(notificationMessages.deleteFailed, { id: TOAST_ID }),
  });
}
