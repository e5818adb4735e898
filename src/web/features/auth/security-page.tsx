import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { KeyRound, LoaderCircle, Plus, ShieldCheck, Smartphone, Trash2 } from 'lucide-react';
import { needsStepUp } from '@/core/auth/aal.ts';
import type { EnrolledFactor, Factor } from '@/contracts/mfa.contract.ts';
import { errorMessage, isApiError } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { MfaChallenge } from '@/web/features/auth/mfa-challenge.tsx';
import { TotpSetup } from '@/web/features/auth/totp-setup.tsx';
import {
  factorLabel,
  isPromptDismissed,
  useAddPasskey,
  useEnrolTotp,
  useFactors,
  useRemoveFactor,
} from '@/web/features/auth/use-mfa.ts';
import { FactorsLoadError } from '@/web/features/auth/factors-load-error.tsx';
import { SubsonicPasswordsCard } from '@/web/features/auth/subsonic-passwords-card.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
type TotpEnrolment = EnrolledFactor & { totp: NonNullable<EnrolledFactor['totp']> };

function failure(title: string, e: unknown, fallback: string) {
  const stepUp = isApiError(e) && e.code === 'insufficient_aal';
  toast.error(title, {
    description: stepUp
      ? 'Verify with one of your security methods first (above).'
      : errorMessage(e, fallback),
  });
}

function FactorRow({
  factor,
  onRemove,
  removing,
}: {
  factor: Factor;
  onRemove: () => void;
  removing: boolean;
}) {
  const Icon = factor.factor_type === 'webauthn' ? KeyRound : Smartphone;
  const name = factorLabel(factor);
  const kind = factor.factor_type === 'webauthn' ? 'Passkey' : 'Authenticator app';
  return (
    <li className="flex items-center gap-3 py-3" data-testid="mfa-factor">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted">
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{name}</p>
        <p className="text-xs text-muted-foreground">
          {name === kind ? 'Added' : `${kind} · added`}{' '}
          <time dateTime={factor.created_at}>{dateFormat.format(new Date(factor.created_at))}</time>
        </p>
      </div>
      <Badge variant={factor.status === 'verified' ? 'secondary' : 'outline'}>
        {factor.status === 'verified' ? 'Verified' : 'Not verified'}
      </Badge>
      <Button
        variant="ghost"
        size="icon"
        onClick={onRemove}
        disabled={removing}
        aria-label={`Remove ${name}`}
      >
        {removing ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <Trash2 aria-hidden="true" />
        )}
      </Button>
    </li>
  );
}

export default function SecurityPage() {
  const { session } = useSession();
  const factors = useFactors();
  const enrolTotp = useEnrolTotp();
  const addPasskey = useAddPasskey();
  const remove = useRemoveFactor();
  const [totp, setTotp] = useState<TotpEnrolment | null>(null);

  useEffect(() => {
    document.title = 'Security · Canto';
  }, []);

  const list = factors.data ?? [];
  const hasVerified = list.some((f) => f.status === 'verified');
  const stepUp = session ? needsStepUp(session.aal, hasVerified) : false;
  const busy = enrolTotp.isPending || addPasskey.isPending;

  const startTotp = () =>
    enrolTotp.mutate(undefined, {
      onSuccess: (enrolled) => enrolled.totp && setTotp({ ...enrolled, totp: enrolled.totp }),
      onError: (e) => failure('Could not add an authenticator app', e, 'Please try again.'),
    });

  const cancelTotp = () => {
    // An abandoned enrolment is removed so it does not linger as "Not verified".
    if (totp) remove.mutate(totp.id);
    setTotp(null);
  };

  const startPasskey = () =>
    addPasskey.mutate(undefined, {
      onSuccess: () => toast.success('Passkey added'),
      onError: (e) =>
        isPromptDismissed(e)
          ? toast.error('Passkey not added', { description: 'The passkey prompt was closed.' })
          : failure('Passkey not added', e, 'The passkey could not be registered.'),
    });

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      {/* The top bar carries the screen's h1 ('Security'). */}
      <p className="text-muted-foreground">Two-step verification for your account.</p>

      {stepUp && (
        <Card>
          <CardContent className="p-6">
            <MfaChallenge onVerified={() => toast.success('Verified')} />
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <div className="flex items-center justify-between gap-3">
            <CardTitle>Security methods</CardTitle>
            {session && (
              <Badge
                variant={session.aal === 'aal2' ? 'default' : 'outline'}
                data-testid="session-aal"
              >
                <ShieldCheck className="size-3" aria-hidden="true" />
                {session.aal === 'aal2' ? 'Session verified (AAL2)' : 'Password only (AAL1)'}
              </Badge>
            )}
          </div>
          <CardDescription>
            With a verified method, signing in asks for it too, and payouts need it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {factors.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              <Skeleton className="h-12" />
              <Skeleton className="h-12" />
            </div>
          ) : factors.isError ? (
            <FactorsLoadError error={factors.error} onRetry={() => void factors.refetch()} />
          ) : list.length === 0 ? (
            <p className="text-sm text-muted-foreground">No security methods yet.</p>
          ) : (
            <ul className="divide-y" aria-label="Security methods">
              {list.map((f) => (
                <FactorRow
                  key={f.id}
                  factor={f}
                  removing={remove.isPending && remove.variables === f.id}
                  onRemove={() =>
                    remove.mutate(f.id, {
                      onSuccess: () => toast.success(`${factorLabel(f)} removed`),
                      onError: (e) => failure('Could not remove it', e, 'Please try again.'),
                    })
                  }
                />
              ))}
            </ul>
          )}

          {totp ? (
            <TotpSetup enrolled={totp} onDone={() => setTotp(null)} onCancel={cancelTotp} />
          ) : (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={startTotp} disabled={busy || stepUp}>
                {enrolTotp.isPending ? (
                  <LoaderCircle className="animate-spin" aria-hidden="true" />
                ) : (
                  <Plus aria-hidden="true" />
                )}
                Add authenticator app
              </Button>
              <Button variant="outline" onClick={startPasskey} disabled={busy || stepUp}>
                {addPasskey.isPending ? (
                  <LoaderCircle className="animate-spin" aria-hidden="true" />
                ) : (
                  <KeyRound aria-hidden="true" />
                )}
                {addPasskey.isPending ? 'Waiting for passkey...' : 'Add passkey'}
              </Button>
            </div>
          )}
        </CardContent>
      </Card>

      {!stepUp && <SubsonicPasswordsCard />}
    </div>
  );
}
