import { useState } from 'react';
import { toast } from 'sonner';
import { KeyRound, LoaderCircle, ShieldCheck, Smartphone } from 'lucide-react';
import type { Factor } from '@/contracts/mfa.contract.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { CodeForm } from './code-input.tsx';
import {
  factorLabel,
  isPromptDismissed,
  useFactors,
  useProvePasskey,
  useVerifyCode,
} from './use-mfa.ts';
import { FactorsLoadError } from '@/web/features/auth/factors-load-error.tsx';

export interface MfaChallengeProps {
  /** Called once a factor is verified; the cached session is already aal2 by then. */
  onVerified: () => void;
  /** When given, a "Sign out" / "Cancel" action is shown. */
  onCancel?: () => void;
  cancelLabel?: string;
  className?: string;
}

/**
 * The second step of signing in (or a step-up): pick one of the account's verified factors
 * and prove it — a TOTP code or the passkey prompt. Shown while the session is aal1 and its
 * next_aal is aal2.
 */
export function MfaChallenge({
  onVerified,
  onCancel,
  cancelLabel = 'Cancel',
  className,
}: MfaChallengeProps) {
  const factors = useFactors();
  const verified = (factors.data ?? []).filter(
    (f) => f.status === 'verified' && f.factor_type !== 'phone',
  );
  const [chosenId, setChosenId] = useState<string | null>(null);
  const chosen = verified.find((f) => f.id === chosenId) ?? verified[0];

  return (
    <section
      aria-labelledby="mfa-challenge-title"
      className={cn('grid gap-4', className)}
      data-testid="mfa-challenge"
    >
      <div className="flex items-start gap-3">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <div>
          <h2 id="mfa-challenge-title" className="font-semibold">
            Two-step verification
          </h2>
          <p className="text-sm text-muted-foreground">
            Confirm it's you with one of your security methods.
          </p>
        </div>
      </div>

      {factors.isPending ? (
        <LoadingMessage label="Loading your security methods..." />
      ) : factors.isError ? (
        <FactorsLoadError error={factors.error} onRetry={() => void factors.refetch()} />
      ) : !chosen ? (
        <p className="text-sm text-muted-foreground">
          No verified security method is set up for this account.
        </p>
      ) : (
        <>
          {verified.length > 1 && (
            <div role="radiogroup" aria-label="Security method" className="flex flex-wrap gap-2">
              {verified.map((f) => (
                <FactorChoice
                  key={f.id}
                  factor={f}
                  selected={f.id === chosen.id}
                  onSelect={() => setChosenId(f.id)}
                />
              ))}
            </div>
          )}
          {chosen.factor_type === 'totp' ? (
            <TotpAnswer key={chosen.id} factor={chosen} onVerified={onVerified} />
          ) : (
            <PasskeyAnswer key={chosen.id} factor={chosen} onVerified={onVerified} />
          )}
        </>
      )}

      {onCancel && (
        <Button variant="ghost" size="sm" className="w-fit" onClick={onCancel}>
          {cancelLabel}
        </Button>
      )}
    </section>
  );
}

function FactorChoice({
  factor,
  selected,
  onSelect,
}: {
  factor: Factor;
  selected: boolean;
  onSelect: () => void;
}) {
  const Icon = factor.factor_type === 'webauthn' ? KeyRound : Smartphone;
  return (
    <Button
      role="radio"
      aria-checked={selected}
      variant={selected ? 'secondary' : 'outline'}
      size="sm"
      onClick={onSelect}
    >
      <Icon aria-hidden="true" />
      {factorLabel(factor)}
    </Button>
  );
}

function TotpAnswer({ factor, onVerified }: { factor: Factor; onVerified: () => void }) {
  const verify = useVerifyCode();
  const [code, setCode] = useState('');
  return (
    <div className="grid gap-2">
      <p className="text-sm">
        Enter the code from <span className="font-medium">{factorLabel(factor)}</span>.
      </p>
      <CodeForm
        value={code}
        onChange={setCode}
        pending={verify.isPending}
        onSubmit={(c) =>
          verify.mutate(
            { factorId: factor.id, code: c },
            {
              onSuccess: () => onVerified(),
              onError: (e) => {
                setCode('');
                toast.error('Verification failed', {
                  description: errorMessage(e, 'Invalid verification code'),
                });
              },
            },
          )
        }
      />
    </div>
  );
}

function PasskeyAnswer({ factor, onVerified }: { factor: Factor; onVerified: () => void }) {
  const prove = useProvePasskey();
  return (
    <div className="grid gap-2">
      <p className="text-sm">
        Use <span className="font-medium">{factorLabel(factor)}</span> on this device.
      </p>
      <Button
        className="w-fit"
        disabled={prove.isPending}
        onClick={() =>
          prove.mutate(factor.id, {
            onSuccess: () => onVerified(),
            onError: (e) =>
              toast.error('Verification failed', {
                description: isPromptDismissed(e)
                  ? 'The passkey prompt was closed. Try again when ready.'
                  : errorMessage(e, 'The passkey could not be verified'),
              }),
          })
        }
      >
        {prove.isPending ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <KeyRound aria-hidden="true" />
        )}
        {prove.isPending ? 'Waiting for passkey...' : 'Use passkey'}
      </Button>
    </div>
  );
}
