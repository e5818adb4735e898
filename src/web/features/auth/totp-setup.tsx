import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Check, Copy } from 'lucide-react';
import type { EnrolledFactor } from '@/contracts/mfa.contract.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { CodeForm } from './code-input.tsx';
import { useVerifyCode } from './use-mfa.ts';

/** A value shown in monospace with a copy button (no QR library: the URI or key is typed or pasted). */
function CopyBox({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const labelId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('Could not copy', { description: 'Select the text and copy it by hand.' });
    }
  };
  return (
    <div role="group" aria-labelledby={labelId} className="grid gap-1.5">
      <span id={labelId} className="text-xs font-medium text-muted-foreground">
        {label}
      </span>
      <div className="flex items-start gap-2">
        <code className="min-w-0 flex-1 rounded-md border bg-muted/50 px-3 py-2 font-mono text-xs break-all select-all">
          {value}
        </code>
        <Button
          variant="outline"
          size="icon"
          onClick={() => void copy()}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}

/** Step two of adding an authenticator app: show the secret, then check one code. */
export function TotpSetup({
  enrolled,
  onDone,
  onCancel,
}: {
  enrolled: EnrolledFactor & { totp: NonNullable<EnrolledFactor['totp']> };
  onDone: () => void;
  onCancel: () => void;
}) {
  const verify = useVerifyCode();
  const [code, setCode] = useState('');
  return (
    <div className="grid gap-4 rounded-lg border p-4" data-testid="totp-setup">
      <ol className="grid list-decimal gap-1 pl-5 text-sm">
        <li>
          In your authenticator app, add an account with the setup key (or open the link on your
          phone).
        </li>
        <li>Enter the 6-digit code it shows to finish.</li>
      </ol>
      <CopyBox label="Setup key" value={enrolled.totp.secret} />
      <CopyBox label="otpauth link" value={enrolled.totp.uri} />
      <CodeForm
        value={code}
        onChange={setCode}
        pending={verify.isPending}
        onSubmit={(c) =>
          verify.mutate(
            { factorId: enrolled.id, code: c },
            {
              onSuccess: () => {
                toast.success('Authenticator app added');
                onDone();
              },
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
      <Button variant="ghost" size="sm" className="w-fit" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
