// Spec §2 Premium: $9.99 per month and what it gives; 'Get Premium' opens create-checkout in
// a new tab, or, when subscribed, the 'Active Premium' state with 'Manage Subscription'
// (customer-portal, new tab). The state follows checkout without a reload: the checkout tab
// announces its confirm, and coming back to this tab refreshes (use-premium.ts).
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { BadgeCheck, Crown, ExternalLink, LoaderCircle } from 'lucide-react';
import type { PremiumOverview } from '@/contracts/premium.contract.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { periodText, PlanCard, TestModeBadge } from './premium-parts.tsx';
import { useOpenPortal, usePremiumOverview, useStartCheckout } from './use-premium.ts';

/** After Stripe Checkout the webhook may trail the redirect by a few seconds: ask again. */
const AWAIT_WEBHOOK_MS = 2000;
const AWAIT_WEBHOOK_POLLS = 30;

function PremiumSkeleton() {
  return (
    <div className="rounded-2xl border p-6 md:p-8" data-testid="premium-loading" aria-hidden="true">
      <div className="flex items-center gap-3">
        <Skeleton className="size-12 rounded-xl" />
        <div className="space-y-2">
          <Skeleton className="h-6 w-44" />
          <Skeleton className="h-4 w-28" />
        </div>
      </div>
      <div className="mt-6 grid gap-3 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20 rounded-xl" />
        ))}
      </div>
      <Skeleton className="mt-6 h-11 w-40 rounded-lg" />
    </div>
  );
}

function ActivePremium({ overview }: { overview: PremiumOverview }) {
  const portal = useOpenPortal();
  const sub = overview.subscription;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-emerald-400/30 bg-emerald-400/5 p-4"
    >
      <div>
        <h3 className="flex items-center gap-2 text-lg font-semibold">
          <BadgeCheck className="size-5 text-emerald-400" aria-hidden="true" />
          Active Premium
        </h3>
        {sub && <p className="text-sm text-muted-foreground">{periodText(sub)}</p>}
      </div>
      <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
        {portal.isPending ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <ExternalLink aria-hidden="true" />
        )}
        Manage Subscription
      </Button>
    </div>
  );
}

function GetPremium({ overview }: { overview: PremiumOverview | undefined }) {
  const checkout = useStartCheckout();
  return (
    <div className="flex flex-wrap items-center gap-4">
      <Button
        variant="brand"
        size="lg"
        disabled={checkout.isPending}
        onClick={() => checkout.mutate()}
      >
        {checkout.isPending ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <Crown aria-hidden="true" />
        )}
        Get Premium
      </Button>
      <p className="text-sm text-muted-foreground">
        {overview?.payments === 'local'
          ? 'Opens the test-mode checkout in a new tab. No card is charged.'
          : 'Opens secure checkout in a new tab. Cancel anytime.'}
      </p>
    </div>
  );
}

export default function PremiumPage() {
  const [params] = useSearchParams();
  const returned = params.get('checkout');
  const { data: overview, isPending, isError, error, refetch } = usePremiumOverview();
  const subscribed = overview?.subscribed === true;
  const awaitingWebhook = returned === 'success' && !subscribed && !isPending;

  // Spec §8: subscription failures are only logged; the screen then shows the free state.
  useEffect(() => {
    if (isError) console.warn('Premium: the subscription could not be loaded', error);
  }, [isError, error]);

  useEffect(() => {
    if (!awaitingWebhook) return;
    let polls = 0;
    const timer = setInterval(() => {
      // After a minute, coming back to the tab (use-premium.ts) still refreshes.
      if (++polls > AWAIT_WEBHOOK_POLLS) clearInterval(timer);
      else void refetch();
    }, AWAIT_WEBHOOK_MS);
    return () => clearInterval(timer);
  }, [awaitingWebhook, refetch]);

  return (
    <section
      aria-labelledby="premium-heading"
      aria-busy={isPending}
      className="mx-auto flex max-w-4xl flex-col gap-6"
    >
      {returned === 'success' && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-xl border bg-card/60 p-4 text-sm"
        >
          {subscribed ? (
            <BadgeCheck className="size-4 text-emerald-400" aria-hidden="true" />
          ) : (
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
          )}
          {subscribed
            ? 'Payment received. Welcome to Premium!'
            : 'Payment received. Premium starts as soon as the payment is confirmed…'}
        </p>
      )}
      {returned === 'canceled' && !subscribed && (
        <p role="status" className="rounded-xl border bg-card/60 p-4 text-sm">
          Checkout was cancelled. You have not been charged.
        </p>
      )}

      {isPending ? (
        <>
          <h2 id="premium-heading" className="sr-only">
            Canto Premium
          </h2>
          <PremiumSkeleton />
        </>
      ) : (
        <PlanCard
          headingId="premium-heading"
          badge={
            subscribed ? (
              <Badge className="brand-gradient border-0 text-white">
                <Crown className="size-3" aria-hidden="true" />
                Premium
              </Badge>
            ) : overview?.payments === 'local' ? (
              <TestModeBadge />
            ) : null
          }
        >
          {subscribed && overview ? (
            <ActivePremium overview={overview} />
          ) : (
            <GetPremium overview={overview} />
          )}
        </PlanCard>
      )}
    </section>
  );
}
