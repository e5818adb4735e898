import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { LoaderCircle, TriangleAlert } from 'lucide-react';
import { newPasswordProblem } from '@/core/validation/auth.check.ts';
import { isApiError } from '@/web/lib/api-client.ts';
import { owesSecondFactor, useResetPassword } from '@/web/session/use-session.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { AuthLayout } from '@/web/features/auth/auth-layout.tsx';
import { Field, serverErrorToast, validationToast } from '@/web/features/auth/auth-form-parts.tsx';

const MISMATCH = 'Passwords do not match';
const LINK_INVALID = 'Password reset link is invalid or has expired';

function InvalidLink() {
  return (
    <div role="alert" className="grid gap-4 text-center">
      <TriangleAlert className="mx-auto size-10 text-destructive" aria-hidden="true" />
      <h2 className="text-xl font-semibold">Link expired or invalid</h2>
      <p className="text-muted-foreground">
        This password reset link has expired or was already used. Reset links work once, for one
        hour.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to="/forgot-password">Request a new link</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/auth">Back to sign in</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * /reset-password?token=…, the mailed link: a new password, checked as at sign-up. The server
 * ends every other session and signs the person in here.
 */
export default function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [linkInvalid, setLinkInvalid] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = newPasswordProblem({ password }) ?? (password !== confirm ? MISMATCH : null);
    if (problem) return validationToast(problem);
    reset.mutateAsync({ token, password }).then(
      (res) => {
        toast.success('Your password has been changed. You are signed in.');
        // An account with a second factor passes its challenge on /auth first.
        navigate(owesSecondFactor(res) ? '/auth' : '/', { replace: true });
      },
      (err: unknown) => {
        if (isApiError(err) && err.message === LINK_INVALID) setLinkInvalid(true);
        else serverErrorToast(err, 'Failed to set a new password');
      },
    );
  };

  return (
    <AuthLayout
      title="Set a new password"
      subtitle="Choose a new password for your Canto account. Other devices will be signed out."
      documentTitle="Set a new password"
    >
      {!token || linkInvalid ? (
        <InvalidLink />
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Set a new password">
          <Field
            id="reset-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            placeholder="At least 6 characters"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field
            id="reset-password-confirm"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" size="lg" className="mt-2 w-full" disabled={reset.isPending}>
            {reset.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            {reset.isPending ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
