// /premium/checkout?session=… — Canto's own test-mode checkout (PAYMENTS=local, docs/decisions/0022):
// clearly marked as test mode, no card. Confirm starts one month of premium for the
// signed-in listener whose link it is; the tab that opened it is told, so its state
// follows without a reload.
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BadgeCheck, FlaskConical, LoaderCircle } from 'lucide-react';
import { premiumApi } from '@/contracts/api/premium.api.ts';
import { premiumMessages } from '@/core/validation/premium.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { formatDay, PlanCard, TestModeBadge } from './premium-parts.tsx';
import { usePremiumChange } from './use-premium.ts';

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-2xl border px-6 py-12 text-center">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </div>
  );
}

export default function CheckoutPage() {
  const [params] = useSearchParams();
  const session = params.get('session') ?? '';
  const view = useQuery({
    queryKey: ['premium', 'checkout', session],
    queryFn: () => api(premiumApi.localCheckout, { query: { session } }),
    enabled: session !== '',
    retry: false,
  });
  const confirm = usePremiumChange(() =>
    api(premiumApi.confirmLocalCheckout, { body: { session } }),
  );

  if (session === '' || view.isError)
    return (
      <Notice title="Checkout unavailable">
        <p role="alert" className="text-muted-foreground">
          {session === ''
            ? premiumMessages.checkoutInvalid
            : errorMessage(view.error, premiumMessages.checkoutInvalid)}
        </p>
        <Button asChild variant="outline">
          <Link to="/premium">Back to Premium</Link>
        </Button>
      </Notice>
    );

  if (confirm.isSuccess || view.data?.confirmed)
    return (
      <Notice title="Welcome to Premium">
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <BadgeCheck className="size-5 text-emerald-400" aria-hidden="true" />
          {confirm.data?.subscription
            ? `Premium is active until ${formatDay(confirm.data.subscription.current_period_end)}.`
            : 'Premium is active.'}
        </p>
        <p className="text-sm text-muted-foreground">
          You can close this tab: Canto in your other tab has already been updated.
        </p>
        <Button asChild variant="outline">
          <Link to="/premium">Go to Premium</Link>
        </Button>
      </Notice>
    );

  return (
    <section aria-labelledby="checkout-heading" className="mx-auto flex max-w-4xl flex-col gap-6">
      <div
        role="note"
        className="flex items-start gap-3 rounded-xl border border-amber-400/50 bg-amber-400/10 p-4 text-sm"
      >
        <FlaskConical className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
        <p>
          <strong>Test mode.</strong> This server takes no real payments: no card is asked for and
          nothing is charged. Confirming starts one month of Canto Premium.
        </p>
      </div>
      {view.isPending ? (
        <div aria-hidden="true" data-testid="checkout-loading" className="rounded-2xl border p-8">
          <Skeleton className="h-8 w-56" />
          <Skeleton className="mt-6 h-20 w-full rounded-xl" />
          <Skeleton className="mt-6 h-11 w-40 rounded-lg" />
        </div>
      ) : (
        <PlanCard headingId="checkout-heading" badge={<TestModeBadge />}>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="brand"
              size="lg"
              disabled={confirm.isPending}
              onClick={() =>
                confirm.mutate(undefined, {
                  onError: (e) =>
                    toast.error('Error', {
                      description: errorMessage(e, premiumMessages.checkoutFailed),
                    }),
                })
              }
            >
              {confirm.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
              Confirm
            </Button>
            <Button asChild variant="ghost" size="lg">
              <Link to="/premium?checkout=canceled">Cancel</Link>
            </Button>
            <p className="text-sm text-muted-foreground">
              This link works until {formatDay(view.data.expires_at)}.
            </p>
          </div>
        </PlanCard>
      )}
    </section>
  );
}
