import { BadgeCheck, Bell, CircleX, Music, UserPlus, UserX, Wallet } from 'lucide-react';
import type { NotificationType } from '@/core/validation/notification.rules.ts';
import { cn } from '@/web/components/ui/cn.ts';

const icons: Record<NotificationType, typeof Bell> = {
  new_follower: UserPlus,
  new_release: Music,
  artist_approved: BadgeCheck,
  artist_rejected: UserX,
  withdrawal_completed: Wallet,
  withdrawal_rejected: CircleX,
  system: Bell,
};

/** The icon of a notification's type (spec §2 Notifications); decorative, the title says it. */
export function NotificationIcon({
  type,
  className,
}: {
  type: NotificationType;
  className?: string;
}) {
  const Icon = icons[type] ?? Bell;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary',
        className,
      )}
    >
      <Icon className="size-4" />
    </span>
  );
}
