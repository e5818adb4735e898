import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Calculator, LoaderCircle } from 'lucide-react';
import type { LastRevenueRun } from '@/contracts/revenue.contract.ts';
import { revenueApi } from '@/contracts/api/revenue.api.ts';
import {
  PLATFORM_FEE_PERCENT,
  PREMIUM_CONTRIBUTION_CENTS,
  revenueMessages,
  TIERS,
} from '@/core/validation/revenue.rules.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';

const lastKey = ['admin', 'revenue', 'last'] as const;

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Spec §2 Admin revenue: the model as the run applies it (docs/decisions/0029). */
function ModelDescription() {
  const [small, medium, large] = TIERS;
  return (
    <div
      className="rounded-lg border bg-muted/40 p-4 text-sm text-muted-foreground"
      aria-label="How revenue is calculated"
      role="note"
    >
      <p className="font-medium text-foreground">How revenue is calculated</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          Each premium listener contributes {dollars.format(PREMIUM_CONTRIBUTION_CENTS / 100)} a
          month, shared only among the artists they listened to, by listening time.
        </li>
        <li>A {PLATFORM_FEE_PERCENT}% platform fee comes off premium and ad revenue.</li>
        <li>Ad revenue is $5 per 1,000 impressions, paid to the artist whose item played.</li>
        <li>
          Artists keep {small?.sharePercent}% under {medium?.minStreams.toLocaleString('en-US')}{' '}
          streams in the month, {medium?.sharePercent}% up to{' '}
          {large?.minStreams.toLocaleString('en-US')}, and {large?.sharePercent}% above.
        </li>
        <li>The calculation runs for the current month and replaces its earlier result.</li>
      </ul>
    </div>
  );
}

function Results({ run }: { run: NonNullable<LastRevenueRun['run']> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Last Calculation Results</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-3" aria-label="Last Calculation Results">
          <div>
            <dt className="text-sm text-muted-foreground">Month</dt>
            <dd className="text-lg font-semibold" data-testid="revenue-month">
              {run.month}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Artists Processed</dt>
            <dd className="text-lg font-semibold" data-testid="revenue-artists">
              {run.artistsProcessed}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Total Premium Pool</dt>
            <dd className="text-lg font-semibold" data-testid="revenue-pool">
              {dollars.format(run.totalPremiumPoolCents / 100)}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

export default function AdminRevenuePage() {
  const qc = useQueryClient();
  const last = useQuery({
    queryKey: lastKey,
    queryFn: ({ signal }) => api(revenueApi.last, { signal }),
    retry: false,
  });

  const calculate = useMutation({
    mutationFn: () => api(revenueApi.calculate, {}),
    onSuccess: (run) => {
      qc.setQueryData<LastRevenueRun>(lastKey, { run });
      toast.success(revenueMessages.calculated(run.artistsProcessed));
    },
    onError: (err) => {
      toast.error('Error', { description: errorMessage(err, revenueMessages.calculateFailed) });
    },
  });

  const run = last.data?.run ?? null;

  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <Card>
        <CardHeader>
          <CardTitle>This month</CardTitle>
          <CardDescription>
            Calculate every artist&apos;s premium, ad and tip revenue for the current month.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ModelDescription />
          <div>
            <Button
              onClick={() => calculate.mutate()}
              disabled={calculate.isPending || last.isPending}
              aria-busy={calculate.isPending}
            >
              {calculate.isPending ? (
                <LoaderCircle className="animate-spin" aria-hidden="true" />
              ) : (
                <Calculator aria-hidden="true" />
              )}
              {calculate.isPending ? 'Calculating...' : 'Calculate Current Month Revenue'}
            </Button>
          </div>
        </CardContent>
      </Card>
      {last.isPending ? (
        <Card aria-busy="true" aria-label="Loading the last calculation">
          <CardHeader>
            <Skeleton className="h-5 w-48" />
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-3">
            {Array.from({ length: 3 }, (_, i) => (
              <div key={i}>
                <Skeleton className="h-3 w-24" />
                <Skeleton className="mt-2 h-6 w-20" />
              </div>
            ))}
          </CardContent>
        </Card>
      ) : last.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(last.error, 'Failed to load the last calculation')}
        </p>
      ) : run ? (
        <Results run={run} />
      ) : null}
    </div>
  );
}
