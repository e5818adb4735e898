// The top bar's bell (spec §2 the notification menu, §4 Notification, §9): the unread badge
// ('9+' above 9), a menu of the 10 newest (about 24rem tall at most) and 'View all
// notifications'. It also holds the tab's live socket, so the badge rises as one arrives.
import { Link, useNavigate } from 'react-router';
import { Bell, BellOff } from 'lucide-react';
import type { NotificationDto } from '@/contracts/notifications.contract.ts';
import {
  badgeText,
  inAppLink,
  notificationMessages,
} from '@/core/validation/notification.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { useSession } from '@/web/session/use-session.ts';
import { NotificationIcon } from './notification-icon.tsx';
import { timeAgo, useNow } from './relative-time.ts';
import { useLiveNotifications } from './use-live-notifications.ts';
import { useMarkRead, useNotificationList } from './use-notifications.ts';

function MenuItem({ item, now }: { item: NotificationDto; now: number }) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const open = () => {
    if (!item.read) markRead.mutate(item.id);
    const link = inAppLink(item.link);
    if (link) navigate(link);
  };
  return (
    <DropdownMenuItem
      onSelect={open}
      data-testid="notification-menu-item"
      className={cn('items-start gap-3 py-2', !item.read && 'bg-primary/5')}
    >
      <NotificationIcon type={item.type} className="size-8" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{item.title}</p>
        {item.message && (
          <p className="line-clamp-2 text-xs text-muted-foreground">{item.message}</p>
        )}
        <time dateTime={item.created_at} className="text-xs text-muted-foreground">
          {timeAgo(item.created_at, now)}
        </time>
      </div>
      {!item.read && (
        <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary">
          <span className="sr-only">Unread</span>
        </span>
      )}
    </DropdownMenuItem>
  );
}

export function NotificationBell() {
  const userId = useSession().user?.id;
  const live = useLiveNotifications(userId);
  const { data, isPending, isError } = useNotificationList('all');
  const now = useNow();
  const unread = data?.unread_count ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={label}
          className="relative"
          data-live={live}
        >
          <Bell className="size-5" aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notification-badge"
              className="absolute -top-0.5 -right-0.5 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-destructive px-1 text-[0.65rem] font-bold text-destructive-foreground"
            >
              {badgeText(unread)}
            </span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80">
        <DropdownMenuLabel className="flex items-center justify-between">
          Notifications
          {unread > 0 && (
            <span className="text-xs font-normal text-muted-foreground">{unread} unread</span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {isPending ? (
          <div className="flex flex-col gap-3 p-2" aria-busy="true" aria-label="Loading">
            {Array.from({ length: 3 }, (_, i) => (
              <div key={i} className="flex gap-3">
                <Skeleton className="size-8 rounded-full" />
                <div className="flex flex-1 flex-col gap-1.5">
                  <Skeleton className="h-3.5 w-3/4" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
              </div>
            ))}
          </div>
        ) : isError ? (
          <p role="alert" className="px-4 py-6 text-center text-sm text-muted-foreground">
            {notificationMessages.loadFailed}
          </p>
        ) : data.items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-4 py-6 text-center text-sm text-muted-foreground">
            <BellOff className="size-6" aria-hidden="true" />
            <p>{notificationMessages.emptyMenu}</p>
          </div>
        ) : (
          // Spec §9: about 24rem at most; the rest scrolls.
          <div className="max-h-96 overflow-y-auto" data-testid="notification-menu-list">
            {data.items.map((item) => (
              <MenuItem key={item.id} item={item} now={now} />
            ))}
          </div>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild className="justify-center font-medium">
          <Link to="/notifications">{notificationMessages.viewAll}</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
