// A small 'Premium' mark for the shell (top bar) while the listener is subscribed; it opens
// /premium. Renders nothing for free listeners.
import { Link } from 'react-router';
import { Crown } from 'lucide-react';
import { badgeVariants } from '@/web/components/ui/badge.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { useSubscribed } from './use-premium.ts';

export function PremiumBadge({ className }: { className?: string }) {
  if (!useSubscribed()) return null;
  return (
    <Link
      to="/premium"
      data-testid="premium-badge"
      aria-label="Premium subscriber"
      className={cn(
        badgeVariants(),
        'brand-gradient h-7 border-0 px-2.5 text-white outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
        className,
      )}
    >
      <Crown className="size-3.5" aria-hidden="true" />
      <span className="hidden sm:inline">Premium</span>
    </Link>
  );
}
