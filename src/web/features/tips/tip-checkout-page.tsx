// /tips/checkout?tip=… — Canto's own test-mode checkout for a tip (PAYMENTS=local,
// docs/decisions/0029): clearly marked as test mode, no card. Confirm pays the tip once; only
// the listener who opened it can see or confirm it.
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, FlaskConical, LoaderCircle } from 'lucide-react';
import { tipsApi } from '@/contracts/api/tips.api.ts';
import { formatCents, tipMessages } from '@/core/validation/tip.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { api, errorMessage } from '@/web/lib/api-client.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-2xl border px-6 py-12 text-center">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </div>
  );
}

export default function TipCheckoutPage() {
  const [params] = useSearchParams();
  const tipId = params.get('tip') ?? '';
  const valid = UUID.test(tipId);
  const client = useQueryClient();
  const view = useQuery({
    queryKey: ['tips', tipId],
    queryFn: () => api(tipsApi.get, { params: { id: tipId } }),
    enabled: valid,
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => api(tipsApi.confirmLocal, { params: { id: tipId } }),
    onSuccess: (tip) => client.setQueryData(['tips', tipId], tip),
  });

  if (!valid || view.isError)
    return (
      <Notice title="Checkout unavailable">
        <p role="alert" className="text-muted-foreground">
          {valid ? errorMessage(view.error, tipMessages.notFound) : tipMessages.notFound}
        </p>
        <Button asChild variant="outline">
          <Link to="/">Back to Home</Link>
        </Button>
      </Notice>
    );

  const tip = view.data;
  if (tip?.status === 'paid')
    return (
      <Notice title="Tip sent">
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <BadgeCheck className="size-5 text-emerald-400" aria-hidden="true" />
          {tipMessages.thanks(formatCents(tip.amount_cents), tip.artist_name ?? 'the artist')}
        </p>
        <Button asChild variant="outline">
          <Link to={`/profile/${tip.artist_id}`}>Back to profile</Link>
        </Button>
      </Notice>
    );

  return (
    <section
      aria-labelledby="tip-checkout-heading"
      className="mx-auto flex max-w-2xl flex-col gap-6"
    >
      <div
        role="note"
        className="flex items-start gap-3 rounded-xl border border-amber-400/50 bg-amber-400/10 p-4 text-sm"
      >
        <FlaskConical className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
        <p>
          <strong>Test mode.</strong> This server takes no real payments: no card is asked for and
          nothing is charged. Confirming records the tip for the artist.
        </p>
      </div>
      {!tip ? (
        <div
          aria-hidden="true"
          data-testid="tip-checkout-loading"
          className="rounded-2xl border p-8"
        >
          <Skeleton className="h-8 w-56" />
          <Skeleton className="mt-6 h-11 w-40 rounded-lg" />
        </div>
      ) : (
        <div className="rounded-2xl border bg-card/60 p-8">
          <h2 id="tip-checkout-heading" className="text-2xl font-bold tracking-tight">
            Tip {tip.artist_name ?? 'the artist'} {formatCents(tip.amount_cents)}
          </h2>
          {tip.status === 'failed' ? (
            <p role="alert" className="mt-4 text-muted-foreground">
              {tipMessages.notPending}
            </p>
          ) : (
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <Button
                variant="brand"
                size="lg"
                disabled={confirm.isPending}
                onClick={() => confirm.mutate()}
              >
                {confirm.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
                Confirm
              </Button>
              <Button asChild variant="ghost" size="lg">
                <Link to={`/profile/${tip.artist_id}`}>Cancel</Link>
              </Button>
            </div>
          )}
          {confirm.isError && (
            <p role="alert" className="mt-4 text-sm text-red-400">
              {errorMessage(confirm.error, tipMessages.failed)}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
