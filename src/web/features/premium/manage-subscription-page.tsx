// /premium/manage — Canto's own subscription management (customer-portal with
// PAYMENTS=local): cancel at the end of the period (premium stays until then) or take the
// cancellation back before it ends. With Stripe, the Billing Portal does this instead.
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { BadgeCheck, ExternalLink, LoaderCircle } from 'lucide-react';
import { premiumApi } from '@/contracts/api/premium.api.ts';
import type { PremiumOverview } from '@/contracts/premium.contract.ts';
import { premiumMessages } from '@/core/validation/premium.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { formatDay, periodText, PlanCard, TestModeBadge } from './premium-parts.tsx';
import { useOpenPortal, usePremiumChange, usePremiumOverview } from './use-premium.ts';

const failed = (e: unknown) =>
  toast.error('Error', { description: errorMessage(e, premiumMessages.portalFailed) });

function CancelDialog({
  open,
  onOpenChange,
  endsOn,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  endsOn: string;
}) {
  const cancel = usePremiumChange(() => api(premiumApi.cancelLocal));
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel Premium?</DialogTitle>
          <DialogDescription>
            You keep Premium until {endsOn}. After that, ads come back and skips are limited to 2
            per hour.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep Premium</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(undefined, {
                onSuccess: () => {
                  onOpenChange(false);
                  toast.success('Subscription cancelled', {
                    description: `Premium ends on ${endsOn}`,
                  });
                },
                onError: failed,
              })
            }
          >
            {cancel.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Cancel Subscription
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function LocalManage({ overview }: { overview: PremiumOverview }) {
  const [confirming, setConfirming] = useState(false);
  const resume = usePremiumChange(() => api(premiumApi.resumeLocal));
  const sub = overview.subscription!;
  const endsOn = formatDay(sub.current_period_end);
  return (
    <PlanCard headingId="manage-heading" badge={<TestModeBadge />}>
      <div
        role="status"
        className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-emerald-400/30 bg-emerald-400/5 p-4"
      >
        <div>
          <h3 className="flex items-center gap-2 text-lg font-semibold">
            <BadgeCheck className="size-5 text-emerald-400" aria-hidden="true" />
            Active Premium
          </h3>
          <p className="text-sm text-muted-foreground">{periodText(sub)}</p>
        </div>
        {sub.cancel_at_period_end ? (
          <Button
            variant="outline"
            disabled={resume.isPending}
            onClick={() =>
              resume.mutate(undefined, {
                onSuccess: () => toast.success('Subscription resumed'),
                onError: failed,
              })
            }
          >
            {resume.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Resume Subscription
          </Button>
        ) : (
          <Button variant="outline" onClick={() => setConfirming(true)}>
            Cancel Subscription
          </Button>
        )}
      </div>
      <CancelDialog open={confirming} onOpenChange={setConfirming} endsOn={endsOn} />
    </PlanCard>
  );
}

export default function ManageSubscriptionPage() {
  const { data: overview, isPending, isError } = usePremiumOverview();
  const portal = useOpenPortal();

  if (isPending)
    return (
      <div
        aria-hidden="true"
        data-testid="manage-loading"
        className="mx-auto max-w-4xl rounded-2xl border p-8"
      >
        <Skeleton className="h-8 w-56" />
        <Skeleton className="mt-6 h-20 w-full rounded-xl" />
      </div>
    );

  const sub = overview?.subscription ?? null;
  return (
    <section aria-labelledby="manage-heading" className="mx-auto flex max-w-4xl flex-col gap-6">
      {overview?.payments === 'stripe' ? (
        <PlanCard headingId="manage-heading">
          <div className="flex flex-wrap items-center gap-4">
            <p className="text-sm text-muted-foreground">
              {sub ? periodText(sub) : 'Payments and cancellation are handled by Stripe.'}
            </p>
            <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
              <ExternalLink aria-hidden="true" />
              Manage Subscription
            </Button>
          </div>
        </PlanCard>
      ) : overview?.subscribed && sub ? (
        <LocalManage overview={overview} />
      ) : (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed px-6 py-12 text-center">
          <h2 id="manage-heading" className="text-xl font-semibold">
            No active subscription
          </h2>
          <p className="text-muted-foreground" role={isError ? 'alert' : undefined}>
            {sub
              ? `Your Premium ended on ${formatDay(sub.current_period_end)}.`
              : premiumMessages.nothingToManage}
          </p>
          <Button asChild variant="brand">
            <Link to="/premium">Get Premium</Link>
          </Button>
        </div>
      )}
    </section>
  );
}
