import type { ComponentProps } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';

// What the forms before the app share (sign in and up, forgot password, new password).

export function validationToast(message: string) {
  toast.error('Validation Error', { description: message });
}

export function serverErrorToast(e: unknown, fallback: string) {
  toast.error('Error', { description: errorMessage(e, fallback) });
}

export function Field({
  id,
  label,
  ...props
}: { id: string; label: string } & ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={id} {...props} />
    </div>
  );
}
