// Spec §2 Admin withdrawals: every request with its artist, amount, method, masked details,
// status and dates; only pending requests show Review, whose dialog takes notes and offers
// 'Approve & Pay' and 'Reject'. The server refuses a second decision (409) and an admin's
// own request.
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Inbox, LoaderCircle } from 'lucide-react';
import type { AdminWithdrawalDto } from '@/contracts/withdrawals.contract.ts';
import { withdrawalMessages } from '@/core/validation/revenue.rules.ts';
import {
  formatCents,
  paymentMethodLabels,
  withdrawalLimits,
} from '@/core/validation/withdrawal.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/web/components/ui/dialog.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { TableHead } from '@/web/components/ui/table.tsx';
import { DateTime, RequestsBody, WithdrawalStatusBadge } from './withdrawal-parts.tsx';
import { useAllWithdrawals, useDecideWithdrawal, type Decision } from './use-withdrawals.ts';

function Review({ request }: { request: AdminWithdrawalDto }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [notes, setNotes] = useState('');
  const decide = useDecideWithdrawal();
  const [active, setActive] = useState<Decision | null>(null);
  const name = request.artist_name?.trim() || 'Unknown artist';

  const run = (decision: Decision) => {
    setActive(decision);
    decide.mutate(
      { id: request.id, decision, notes },
      {
        onSuccess: () => {
          toast.success(
            decision === 'approve' ? withdrawalMessages.approved : withdrawalMessages.rejected,
          );
          setOpen(false);
          setNotes('');
        },
        onError: (err) =>
          toast.error(withdrawalMessages.updateFailed, { description: errorMessage(err) }),
        onSettled: () => setActive(null),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Review ${name}'s request`}>
          Review
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Review withdrawal request</DialogTitle>
          <DialogDescription>
            {name} asks for {formatCents(request.amount_cents)} by{' '}
            {paymentMethodLabels[request.payment_method]} ({request.payment_details_masked}).
            Approve & Pay once you have sent the money; Reject makes the amount available again.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-notes`}>Notes (optional, shown to the artist)</Label>
          <Textarea
            id={`${id}-notes`}
            value={notes}
            maxLength={withdrawalLimits.notes}
            rows={3}
            onChange={(e) => setNotes(e.target.value)}
          />
        </div>
        <DialogFooter>
          <Button
            variant="outline"
            disabled={decide.isPending}
            onClick={() => run('reject')}
            className="hover:border-destructive hover:bg-destructive/15"
          >
            {active === 'reject' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Reject
          </Button>
          <Button disabled={decide.isPending} onClick={() => run('approve')}>
            {active === 'approve' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Approve & Pay
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export default function AdminWithdrawalsPage() {
  const all = useAllWithdrawals();

  useEffect(() => {
    if (all.isError) toast.error(withdrawalMessages.loadFailed);
  }, [all.isError]);

  const pendingCount = all.data?.filter((w) => w.status === 'pending').length ?? 0;

  return (
    <div className="mx-auto max-w-6xl">
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Withdrawal Requests</CardTitle>
            <CardDescription>
              Pay pending requests outside Canto, then Approve & Pay to record it; the artist is
              notified either way.
            </CardDescription>
          </div>
          {pendingCount > 0 && (
            <Badge variant="secondary" aria-label={`${pendingCount} pending`}>
              {pendingCount}
            </Badge>
          )}
        </CardHeader>
        <CardContent className="p-0">
          <RequestsBody
            query={all}
            loadingLabel="Loading requests"
            empty={{ icon: Inbox, text: 'No withdrawal requests' }}
          >
            {(rows) => (
              <div className="overflow-x-auto border-t">
                <table className="w-full text-sm">
                  <caption className="sr-only">Withdrawal requests, newest first</caption>
                  <thead className="text-left text-muted-foreground">
                    <tr>
                      <TableHead className="px-6">Artist</TableHead>
                      <TableHead>Amount</TableHead>
                      <TableHead>Method</TableHead>
                      <TableHead>Details</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead>Requested</TableHead>
                      <TableHead>Processed</TableHead>
                      <TableHead className="px-6">
                        <span className="sr-only">Actions</span>
                      </TableHead>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {rows.map((w) => (
                      <tr key={w.id} data-testid="admin-withdrawal">
                        <td className="px-6 py-3 font-medium">
                          {w.artist_name?.trim() || 'Unknown artist'}
                        </td>
                        <td className="px-3 py-3 tabular-nums">{formatCents(w.amount_cents)}</td>
                        <td className="px-3 py-3">{paymentMethodLabels[w.payment_method]}</td>
                        <td className="px-3 py-3">{w.payment_details_masked}</td>
                        <td className="px-3 py-3">
                          <WithdrawalStatusBadge status={w.status} />
                        </td>
                        <td className="px-3 py-3">
                          <DateTime iso={w.requested_at} />
                        </td>
                        <td className="px-3 py-3">
                          <DateTime iso={w.processed_at} />
                          {w.notes && (
                            <p className="mt-1 max-w-xs text-xs text-muted-foreground">{w.notes}</p>
                          )}
                        </td>
                        <td className="px-6 py-3 text-right">
                          {w.status === 'pending' && <Review request={w} />}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </RequestsBody>
        </CardContent>
      </Card>
    </div>
  );
}
