import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Check, Inbox, LoaderCircle, X } from 'lucide-react';
import type { ArtistRequest } from '@/contracts/admin.contract.ts';
import { adminApi } from '@/contracts/api/admin.api.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { initial } from '@/web/lib/format.ts';
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
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/web/components/ui/dialog.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';

const requestsKey = ['admin', 'artist-requests'] as const;

type Decision = 'approve' | 'reject';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function requestedAt(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

/** Reject removes the request for good: it is asked once more in a dialog. */
function ConfirmReject({
  name,
  disabled,
  onConfirm,
}: {
  name: string;
  disabled: boolean;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          size="sm"
          variant="outline"
          disabled={disabled}
          aria-label={`Reject ${name}`}
          className="hover:border-destructive hover:bg-destructive/15"
        >
          <X aria-hidden="true" />
          Reject
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reject this artist request?</DialogTitle>
          <DialogDescription>
            {name}'s request is removed and they stay a listener. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            Reject
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RequestRow({
  request,
  busy,
  pending,
  onDecide,
}: {
  request: ArtistRequest;
  busy: Decision | null;
  pending: boolean;
  onDecide: (d: Decision) => void;
}) {
  const name = request.display_name?.trim() || 'Unknown User';
  return (
    <li
      className="flex flex-col gap-4 px-6 py-4 sm:flex-row sm:items-center"
      aria-busy={busy !== null}
      data-testid="artist-request"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <span
          aria-hidden="true"
          className="brand-gradient flex size-10 shrink-0 items-center justify-center rounded-full font-semibold text-white"
        >
          {initial(name)}
        </span>
        <div className="min-w-0">
          <p className="truncate font-medium">{name}</p>
          <p className="text-xs text-muted-foreground">
            Requested{' '}
            <time dateTime={request.requested_at}>{requestedAt(request.requested_at)}</time>
          </p>
        </div>
      </div>
      <div className="flex gap-2">
        {busy ? (
          <Button size="sm" variant="secondary" disabled className="min-w-28">
            <LoaderCircle className="animate-spin" aria-hidden="true" />
            Processing...
          </Button>
        ) : (
          <>
            <Button
              size="sm"
              onClick={() => onDecide('approve')}
              disabled={pending}
              aria-label={`Approve ${name}`}
            >
              <Check aria-hidden="true" />
              Approve
            </Button>
            <ConfirmReject name={name} disabled={pending} onConfirm={() => onDecide('reject')} />
          </>
        )}
      </div>
    </li>
  );
}

export default function AdminArtistApprovalPage() {
  const qc = useQueryClient();
  const [active, setActive] = useState<{ userId: string; decision: Decision } | null>(null);

  const requests = useQuery({
    queryKey: requestsKey,
    queryFn: ({ signal }) => api(adminApi.artistRequests, { signal }),
    retry: false,
  });

  useEffect(() => {
    if (requests.isError) toast.error('Error', { description: 'Failed to load pending artists' });
  }, [requests.isError]);

  const decide = useMutation({
    mutationFn: ({ userId, decision }: { userId: string; decision: Decision }) =>
      api(decision === 'approve' ? adminApi.approveArtist : adminApi.rejectArtist, {
        params: { userId },
      }),
    onMutate: (vars) => setActive(vars),
    onSuccess: (_data, { userId, decision }) => {
      qc.setQueryData<ArtistRequest[]>(requestsKey, (list) =>
        list?.filter((r) => r.user_id !== userId),
      );
      toast.success(
        decision === 'approve' ? 'Artist approved successfully!' : 'Artist request rejected',
      );
    },
    onError: (err, { decision }) => {
      toast.error('Error', {
        description:
          decision === 'approve'
            ? errorMessage(err, 'Failed to approve artist')
            : 'Failed to reject artist request',
      });
    },
    onSettled: () => {
      setActive(null);
      void qc.invalidateQueries({ queryKey: requestsKey });
    },
  });

  const list = requests.data ?? [];

  return (
    <div className="mx-auto max-w-4xl">
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Pending Artist Requests</CardTitle>
            <CardDescription>
              Approved artists can upload music and podcasts. Rejected requests are removed.
            </CardDescription>
          </div>
          {!requests.isPending && list.length > 0 && (
            <Badge variant="secondary" aria-label={`${list.length} pending`}>
              {list.length}
            </Badge>
          )}
        </CardHeader>
        <CardContent className="p-0">
          {requests.isPending ? (
            <ul aria-busy="true" aria-label="Loading requests" className="divide-y border-t">
              {Array.from({ length: 3 }, (_, i) => (
                <li key={i} className="flex items-center gap-3 px-6 py-4">
                  <Skeleton className="size-10 rounded-full" />
                  <div className="flex-1">
                    <Skeleton className="h-4 w-40" />
                    <Skeleton className="mt-2 h-3 w-28" />
                  </div>
                  <Skeleton className="h-8 w-40" />
                </li>
              ))}
            </ul>
          ) : list.length === 0 ? (
            <div className="flex flex-col items-center gap-2 border-t px-6 py-14 text-center text-muted-foreground">
              <Inbox className="size-8" aria-hidden="true" />
              <p>No pending artist requests</p>
            </div>
          ) : (
            <ul className="divide-y border-t" aria-label="Pending artist requests">
              {list.map((r) => (
                <RequestRow
                  key={r.user_id}
                  request={r}
                  busy={active?.userId === r.user_id ? active.decision : null}
                  pending={decide.isPending}
                  onDecide={(decision) => decide.mutate({ userId: r.user_id, decision })}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
