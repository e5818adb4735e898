// Tip Artist on an artist's profile (docs/decisions/0029): $1–$100 and an optional note; the
// server opens the checkout (Canto's test-mode page, or Stripe Checkout) and this page goes
// there. The amount is checked here for display only: the server refuses anything else.
import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { HandCoins, LoaderCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import { tipsApi } from '@/contracts/api/tips.api.ts';
import {
  dollarsToCents,
  MAX_TIP_CENTS,
  MIN_TIP_CENTS,
  TIP_MESSAGE_MAX,
  tipMessages,
} from '@/core/validation/tip.rules.ts';
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
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { api, errorMessage } from '@/web/lib/api-client.ts';

const PRESETS = [300, 500, 1000, 2000];

export function TipButton({ artistId, artistName }: { artistId: string; artistName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <HandCoins aria-hidden="true" />
        Tip Artist
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          {open && <TipForm artistId={artistId} artistName={artistName} />}
        </DialogContent>
      </Dialog>
    </>
  );
}

function TipForm({ artistId, artistName }: { artistId: string; artistName: string }) {
  const ids = useId();
  const navigate = useNavigate();
  const [amount, setAmount] = useState('5');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (body: { artist_id: string; amount_cents: number; message?: string }) =>
      api(tipsApi.create, { body }),
    onSuccess: ({ url }) => {
      // Stripe's page is elsewhere; the test-mode page is ours.
      if (url.startsWith('/')) void navigate(url);
      else window.location.assign(url);
    },
    onError: (e) => setProblem(errorMessage(e, tipMessages.failed)),
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (send.isPending) return;
    const cents = dollarsToCents(amount);
    if (cents === null || cents < MIN_TIP_CENTS || cents > MAX_TIP_CENTS) {
      setProblem(tipMessages.amountRange);
      document.getElementById(`${ids}-amount`)?.focus();
      return;
    }
    setProblem(null);
    const note = message.trim();
    send.mutate({ artist_id: artistId, amount_cents: cents, ...(note ? { message: note } : {}) });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Tip {artistName}</DialogTitle>
        <DialogDescription>
          Send $1 to $100. The artist receives it less the 5 % platform fee.
        </DialogDescription>
      </DialogHeader>
      <fieldset disabled={send.isPending} className="grid gap-4">
        <div className="flex flex-wrap gap-2" role="group" aria-label="Suggested amounts">
          {PRESETS.map((cents) => (
            <Button
              key={cents}
              type="button"
              variant="outline"
              size="sm"
              aria-pressed={dollarsToCents(amount) === cents}
              onClick={() => setAmount(String(cents / 100))}
            >
              ${cents / 100}
            </Button>
          ))}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${ids}-amount`}>Amount (USD)</Label>
          <Input
            id={`${ids}-amount`}
            inputMode="decimal"
            value={amount}
            aria-invalid={problem === tipMessages.amountRange}
            aria-describedby={problem ? `${ids}-problem` : undefined}
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${ids}-message`}>Message (optional)</Label>
          <Textarea
            id={`${ids}-message`}
            maxLength={TIP_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
        {problem && (
          <p id={`${ids}-problem`} role="alert" className="text-sm text-red-400">
            {problem}
          </p>
        )}
      </fieldset>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={send.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="brand" disabled={send.isPending}>
          {send.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Send Tip
        </Button>
      </DialogFooter>
    </form>
  );
}
