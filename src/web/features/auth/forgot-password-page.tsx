import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { LoaderCircle, MailCheck } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { authApi } from '@/contracts/api/auth.api.ts';
import { recoverProblem } from '@/core/validation/auth.check.ts';
import { api } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { AuthLayout } from '@/web/features/auth/auth-layout.tsx';
import { Field, serverErrorToast, validationToast } from '@/web/features/auth/auth-form-parts.tsx';

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  // The sign-in form hands over what was typed there.
  const typed = (useLocation().state as { email?: unknown } | null)?.email;
  const [email, setEmail] = useState(typeof typed === 'string' ? typed : '');
  const recover = useMutation({
    mutationFn: (address: string) => api(authApi.recover, { body: { email: address } }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = recoverProblem({ email });
    if (problem) return validationToast(problem);
    recover.mutate(email, {
      onError: (err) => serverErrorToast(err, 'Failed to send the reset link'),
    });
  };

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to set a new one."
      documentTitle="Forgot password"
    >
      {recover.isSuccess ? (
        <div role="status" className="grid gap-4 text-center">
          <MailCheck className="mx-auto size-10 text-primary" aria-hidden="true" />
          <h2 className="text-xl font-semibold">Check your email</h2>
          <p className="text-muted-foreground">{recover.data.message}</p>
          <p className="text-sm text-muted-foreground">
            The link works for one hour. Nothing arrived? Check your spam folder, or try again.
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to="/auth">Back to sign in</Link>
            </Button>
            <Button variant="outline" onClick={() => recover.reset()}>
              Try again
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Forgot password">
          <Field
            id="recover-email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" size="lg" className="mt-2 w-full" disabled={recover.isPending}>
            {recover.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            {recover.isPending ? 'Sending...' : 'Send reset link'}
          </Button>
          <Link
            to="/auth"
            className="justify-self-center text-sm font-medium underline underline-offset-4 hover:text-primary"
          >
            Back to sign in
          </Link>
        </form>
      )}
    </AuthLayout>
  );
}
