// Subsonic app passwords (docs/decisions/0034): what a phone app signs in with instead of the
// account password. The secret is shown once, right after it is made, with a copy button.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Copy, LoaderCircle, Plus, Trash2 } from 'lucide-react';
import type { AppPassword, CreatedAppPassword } from '@/contracts/subsonic.contract.ts';
import { APP_PASSWORD_NAME_MAX } from '@/contracts/subsonic.contract.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
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
} from '@/web/components/ui/dialog.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import {
  useAppPasswords,
  useCreateAppPassword,
  useRevokeAppPassword,
} from '@/web/features/auth/use-subsonic-passwords.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function NewSecret({ created, onDone }: { created: CreatedAppPassword; onDone: () => void }) {
  const copy = () =>
    navigator.clipboard
      .writeText(created.password)
      .then(() => toast.success('Copied'))
      .catch(() => toast.error('Could not copy', { description: 'Select the text and copy it.' }));
  return (
    <div className="grid gap-2 rounded-md border p-3" role="status">
      <p className="text-sm font-medium">
        {`Password for "${created.name}": copy it now, it will not be shown again.`}
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 text-sm"
          data-testid="app-password-secret"
        >
          {created.password}
        </code>
        <Button variant="outline" size="sm" onClick={copy} aria-label="Copy app password">
          <Copy aria-hidden="true" />
          Copy
        </Button>
      </div>
      <Button variant="ghost" size="sm" className="justify-self-start" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function RevokeDialog({
  target,
  onOpenChange,
}: {
  target: AppPassword | null;
  onOpenChange: (open: boolean) => void;
}) {
  const revoke = useRevokeAppPassword();
  return (
    <Dialog open={target !== null} onOpenChange={(o) => !revoke.isPending && onOpenChange(o)}>
      <DialogContent hideClose>
        <DialogHeader>
          <DialogTitle>{`Revoke "${target?.name ?? ''}"?`}</DialogTitle>
          <DialogDescription>
            Apps signed in with this password stop working at once. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={revoke.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={revoke.isPending}
            onClick={() =>
              target &&
              revoke.mutate(target.id, {
                onSuccess: () => {
                  toast.success(`${target.name} revoked`);
                  onOpenChange(false);
                },
                onError: (e) =>
                  toast.error('Could not revoke it', {
                    description: errorMessage(e, 'Please try again.'),
                  }),
              })
            }
          >
            {revoke.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Revoke
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function SubsonicPasswordsCard() {
  const passwords = useAppPasswords();
  const create = useCreateAppPassword();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedAppPassword | null>(null);
  const [revoking, setRevoking] = useState<AppPassword | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (made) => {
        setCreated(made);
        setName('');
      },
      onError: (err) =>
        toast.error('Could not create it', { description: errorMessage(err, 'Please try again.') }),
    });
  };
  const list = passwords.data ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Subsonic app passwords</CardTitle>
        <CardDescription>
          Phone and desktop music apps that speak Subsonic sign in with your email and one of these
          passwords, never your account password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="flex flex-wrap items-end gap-2" onSubmit={submit}>
          <div className="grid min-w-48 flex-1 gap-1">
            <Label htmlFor="app-password-name">Name</Label>
            <Input
              id="app-password-name"
              value={name}
              maxLength={APP_PASSWORD_NAME_MAX}
              placeholder="My phone"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={create.isPending || name.trim() === ''}>
            {create.isPending ? (
              <LoaderCircle className="animate-spin" aria-hidden="true" />
            ) : (
              <Plus aria-hidden="true" />
            )}
            Create
          </Button>
        </form>

        {created && <NewSecret created={created} onDone={() => setCreated(null)} />}

        {passwords.isPending ? (
          <Skeleton className="h-12" />
        ) : passwords.isError ? (
          <p className="text-sm text-destructive" role="alert">
            {errorMessage(passwords.error, 'Could not load your app passwords.')}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No app passwords yet.</p>
        ) : (
          <ul className="divide-y" aria-label="Subsonic app passwords">
            {list.map((p) => (
              <li key={p.id} className="flex items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{p.name}</p>
                  <p className="text-xs text-muted-foreground">
                    Created{' '}
                    <time dateTime={p.created_at}>{dateFormat.format(new Date(p.created_at))}</time>
                  </p>
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => setRevoking(p)}
                  aria-label={`Revoke ${p.name}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <RevokeDialog target={revoking} onOpenChange={(o) => !o && setRevoking(null)} />
      </CardContent>
    </Card>
  );
}
