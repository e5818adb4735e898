// Pieces the premium, checkout and manage screens share: the plan card, the test-mode
// marker and how a subscription's period is put into words.
import type { ReactNode } from 'react';
import { Check, Crown, FlaskConical } from 'lucide-react';
import type { SubscriptionDto } from '@/contracts/premium.contract.ts';
import {
  formatUsd,
  PREMIUM_BENEFITS,
  PREMIUM_PRICE_CENTS,
} from '@/core/validation/premium.rules.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { cn } from '@/web/components/ui/cn.ts';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
export const formatDay = (iso: string) => day.format(new Date(iso));

/** What happens at the period's end, as the listener needs to know it. */
export function periodText(sub: SubscriptionDto): string {
  const end = formatDay(sub.current_period_end);
  if (sub.cancel_at_period_end) return `Cancelled: Premium ends on ${end}`;
  // Test mode has no card to charge: its month simply ends.
  return sub.provider === 'stripe' ? `Renews on ${end}` : `Current period ends on ${end}`;
}

export function TestModeBadge({ className }: { className?: string }) {
  return (
    <Badge
      variant="outline"
      className={cn('border-amber-400/60 bg-amber-400/10 text-amber-300', className)}
    >
      <FlaskConical className="size-3" aria-hidden="true" />
      Test mode
    </Badge>
  );
}

/** The plan: name, price (spec §9) and what premium gives (spec §1). */
export function PlanCard({
  headingId,
  badge,
  children,
}: {
  headingId: string;
  badge?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="relative overflow-hidden rounded-2xl border bg-card/70 p-6 shadow-sm md:p-8">
      <div
        aria-hidden="true"
        className="brand-gradient pointer-events-none absolute -top-24 -right-24 size-64 rounded-full opacity-20 blur-3xl"
      />
      <div className="relative flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-center gap-3">
          <span className="brand-gradient flex size-12 items-center justify-center rounded-xl text-white shadow-md">
            <Crown className="size-6" aria-hidden="true" />
          </span>
          <div>
            <h2 id={headingId} className="text-2xl font-bold tracking-tight">
              Canto Premium
            </h2>
            <p className="text-muted-foreground" data-testid="premium-price">
              <span className="text-xl font-semibold text-foreground">
                {formatUsd(PREMIUM_PRICE_CENTS)}
              </span>{' '}
              per month
            </p>
          </div>
        </div>
        {badge}
      </div>
      <ul className="relative mt-6 grid gap-3 sm:grid-cols-2" aria-label="What Premium gives">
        {PREMIUM_BENEFITS.map((b) => (
          <li key={b.title} className="rounded-xl bg-background/40 p-4">
            <p className="flex items-center gap-2 font-medium">
              <Check className="size-4 text-emerald-400" aria-hidden="true" />
              {b.title}
            </p>
            <p className="mt-1 text-sm text-muted-foreground">{b.detail}</p>
          </li>
        ))}
      </ul>
      {children && <div className="relative mt-6">{children}</div>}
    </div>
  );
}
