import { useId, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';

/** The six-digit code field and its submit button. */
export function CodeForm({
  value,
  onChange,
  onSubmit,
  pending,
  submitLabel = 'Verify',
}: {
  value: string;
  onChange: (v: string) => void;
  onSubmit: (code: string) => void;
  pending: boolean;
  submitLabel?: string;
}) {
  const id = useId();
  const code = value.replace(/\D/g, '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.length === 6) onSubmit(code);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3" aria-label="Verify code">
      <div className="grid gap-2">
        <Label htmlFor={id}>Verification code</Label>
        <Input
          id={id}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={7}
          placeholder="123456"
          className="max-w-40 font-mono tracking-widest"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          The 6-digit code your authenticator app shows now.
        </p>
      </div>
      <Button type="submit" className="w-fit" disabled={pending || code.length !== 6}>
        {pending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {pending ? 'Verifying...' : submitLabel}
      </Button>
    </form>
  );
}
