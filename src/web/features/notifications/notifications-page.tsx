// Spec §2 Notifications: tabs All and Unread (count), a heading with the unread count and
// total, 'Mark all as read' while unread ones exist, and each item with its type's icon,
// title, message, 'New' if unread, relative time and delete; clicking one marks it read and
// opens its link. 5 skeletons while loading; spec §8 messages.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BellOff, CheckCheck, CheckCircle2, Trash2 } from 'lucide-react';
import type { NotificationDto } from '@/contracts/notifications.contract.ts';
import {
  inAppLink,
  notificationLimits,
  notificationMessages,
} from '@/core/validation/notification.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { NotificationIcon } from './notification-icon.tsx';
import { timeAgo, useNow } from './relative-time.ts';
import {
  useDeleteNotification,
  useMarkAllRead,
  useMarkRead,
  useNotificationList,
  type NotificationFilter,
} from './use-notifications.ts';

function NotificationItem({ item, now }: { item: NotificationDto; now: number }) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const remove = useDeleteNotification();
  const open = () => {
    if (!item.read) markRead.mutate(item.id);
    const link = inAppLink(item.link);
    if (link) navigate(link);
  };
  return (
    <li
      data-testid="notification-item"
      className={cn(
        'flex items-start gap-2 rounded-xl border p-2 transition-colors',
        item.read ? 'bg-card' : 'border-primary/40 bg-primary/5',
      )}
    >
      <button
        type="button"
        onClick={open}
        className="flex min-w-0 flex-1 items-start gap-3 rounded-lg p-2 text-left outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <NotificationIcon type={item.type} />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{item.title}</span>
            {!item.read && <Badge>New</Badge>}
          </span>
          {item.message && (
            <span className="mt-0.5 block text-sm text-muted-foreground">{item.message}</span>
          )}
          <time dateTime={item.created_at} className="mt-1 block text-xs text-muted-foreground">
            {timeAgo(item.created_at, now)}
          </time>
        </span>
      </button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete notification: ${item.title}`}
        title="Delete notification"
        disabled={remove.isPending}
        onClick={() => remove.mutate(item)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}

function ItemsSkeleton() {
  return (
    <ul aria-busy="true" aria-label="Loading notifications" data-testid="notifications-loading">
      {Array.from({ length: notificationLimits.skeletons }, (_, i) => (
        <li key={i} className="mb-2 flex items-start gap-3 rounded-xl border p-4">
          <Skeleton className="size-9 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3.5 w-2/3" />
            <Skeleton className="h-3 w-24" />
          </div>
        </li>
      ))}
    </ul>
  );
}

function NotificationItems({ filter }: { filter: NotificationFilter }) {
  const { data, isPending, isError, isFetching, refetch } = useNotificationList(filter);
  const now = useNow();
  if (isPending) return <ItemsSkeleton />;
  if (isError)
    return (
      <LoadFailed
        message={notificationMessages.loadFailed}
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  if (data.items.length === 0) {
    const Icon = filter === 'unread' ? CheckCircle2 : BellOff;
    return (
      <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
        <Icon className="size-8" aria-hidden="true" />
        <p className="font-medium text-foreground">
          {filter === 'unread' ? notificationMessages.emptyUnread : notificationMessages.emptyAll}
        </p>
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-2">
      {data.items.map((item) => (
        <NotificationItem key={item.id} item={item} now={now} />
      ))}
    </ul>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export default function NotificationsPage() {
  const [tab, setTab] = useState<NotificationFilter>('all');
  // Both tabs' answers carry the same counts; the All list is the one the bell also reads.
  const { data } = useNotificationList('all');
  const markAll = useMarkAllRead();
  const unread = data?.unread_count ?? 0;
  const total = data?.total ?? 0;

  return (
    <section aria-labelledby="notifications-heading" className="mx-auto max-w-3xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="notifications-heading" className="text-xl font-bold tracking-tight">
          {data
            ? `${plural(unread, 'unread', 'unread')} of ${plural(total, 'notification', 'notifications')}`
            : 'Notifications'}
        </h2>
        {unread > 0 && (
          <Button variant="outline" disabled={markAll.isPending} onClick={() => markAll.mutate()}>
            <CheckCheck aria-hidden="true" />
            {notificationMessages.markAll}
          </Button>
        )}
      </div>
      <Tabs value={tab} onValueChange={(v) => setTab(v as NotificationFilter)}>
        <TabsList>
          <TabsTrigger value="all">All</TabsTrigger>
          <TabsTrigger value="unread">Unread ({unread})</TabsTrigger>
        </TabsList>
        <TabsContent value="all">
          <NotificationItems filter="all" />
        </TabsContent>
        <TabsContent value="unread">
          <NotificationItems filter="unread" />
        </TabsContent>
      </Tabs>
    </section>
  );
}
