// Stripe Connect onboarding in withdrawal settings (docs/decisions/0029): with PAYMENTS=stripe an
// artist connects the account Stripe transfers are paid to; 'Connect with Stripe' (or 'Finish
// Stripe setup') opens Stripe's onboarding, which returns to /withdrawal-settings.
import { useMutation, useQuery } from '@tanstack/react-query';
import { BadgeCheck, ExternalLink, LoaderCircle } from 'lucide-react';
import { payoutsApi } from '@/contracts/api/payouts.api.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { api, errorMessage } from '@/web/lib/api-client.ts';

export function StripeConnect() {
  const account = useQuery({
    queryKey: ['payouts', 'stripe'],
    queryFn: () => api(payoutsApi.stripeAccount),
  });
  const onboard = useMutation({
    mutationFn: () => api(payoutsApi.stripeOnboard),
    onSuccess: ({ url }) => window.location.assign(url),
  });

  if (account.isPending)
    return <Skeleton className="h-10 w-56" data-testid="stripe-connect-loading" />;
  if (account.isError)
    return (
      <p role="alert" className="text-sm text-red-400">
        Failed to load your Stripe account
      </p>
    );
  const { enabled, connected, ready } = account.data;
  if (!enabled) return null;
  return (
    <div className="grid gap-2 rounded-xl border p-4" aria-label="Stripe payouts" role="group">
      {ready ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <BadgeCheck className="size-4 text-emerald-400" aria-hidden="true" />
          Your Stripe account is connected and can receive payouts.
        </p>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            {connected
              ? 'Your Stripe account needs more details before it can receive payouts.'
              : 'Connect a Stripe account to receive payouts.'}
          </p>
          <div>
            <Button
              type="button"
              variant="outline"
              disabled={onboard.isPending}
              onClick={() => onboard.mutate()}
            >
              {onboard.isPending ? (
                <LoaderCircle className="animate-spin" aria-hidden="true" />
              ) : (
                <ExternalLink aria-hidden="true" />
              )}
              {connected ? 'Finish Stripe setup' : 'Connect with Stripe'}
            </Button>
          </div>
          {onboard.isError && (
            <p role="alert" className="text-sm text-red-400">
              {errorMessage(onboard.error, 'Failed to open Stripe onboarding')}
            </p>
          )}
        </>
      )}
    </div>
  );
}
