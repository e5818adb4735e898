import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { authApi } from '@/contracts/api/auth.api.ts';
import { api, errorMessage, isApiError } from '@/web/lib/api-client.ts';
import { sessionKey, useSession } from '@/web/session/use-session.ts';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { AuthLayout } from '@/web/features/auth/auth-layout.tsx';

type Outcome = 'verified' | 'invalid' | 'failed';

// One request per token: a link is single-use, so a second call (StrictMode's double effect, a
// remount) would spend nothing and report 'invalid' for a link that just worked.
const attempts = new Map<string, Promise<Outcome>>();

function verify(token: string): Promise<Outcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = api(authApi.verifyEmail, { body: { token } }).then(
      () => 'verified' as const,
      (err: unknown) => {
        // A retry may help after a failed connection or a limit, not after a refusal.
        attempts.delete(token);
        return isApiError(err) && err.status === 400 ? 'invalid' : 'failed';
      },
    );
    attempts.set(token, attempt);
  }
  return attempt;
}

/** /verify-email?token=…, the link mailed at sign-up: says whether the address is now confirmed. */
export default function VerifyEmailPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const { status, user } = useSession();
  const qc = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(token ? null : 'invalid');
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!token) return;
    let live = true;
    void verify(token).then((result) => {
      if (!live) return;
      setOutcome(result);
      // The signed-in session's email_verified changed.
      if (result === 'verified') void qc.invalidateQueries({ queryKey: sessionKey });
    });
    return () => {
      live = false;
    };
  }, [token, round, qc]);

  const signedIn = status === 'signed-in';
  const resend = useMutation({
    mutationFn: () => api(authApi.resendVerification, {}),
    onSuccess: () => toast.success(`A new link is on its way to ${user?.email ?? 'your inbox'}`),
    onError: (err) => toast.error(errorMessage(err, 'Failed to send a new link')),
  });
  const onward = (
    <Button asChild>
      {signedIn ? <Link to="/">Continue to Canto</Link> : <Link to="/auth">Sign in</Link>}
    </Button>
  );

  let body;
  if (outcome === null) {
    body = <LoadingMessage label="Confirming your email..." />;
  } else if (outcome === 'verified' || (outcome === 'invalid' && user?.email_verified)) {
    body = (
      <div role="status" className="grid gap-4 text-center">
        <CircleCheck className="mx-auto size-10 text-primary" aria-hidden="true" />
        <h2 className="text-xl font-semibold">Email verified</h2>
        <p className="text-muted-foreground">
          {outcome === 'verified'
            ? 'Thanks! Your email address is confirmed.'
            : 'Your email address is already confirmed.'}
        </p>
        <div className="flex justify-center">{onward}</div>
      </div>
    );
  } else if (outcome === 'invalid') {
    body = (
      <div role="alert" className="grid gap-4 text-center">
        <TriangleAlert className="mx-auto size-10 text-destructive" aria-hidden="true" />
        <h2 className="text-xl font-semibold">Link expired or invalid</h2>
        <p className="text-muted-foreground">
          This verification link has expired or was already used. Links work once, for 24 hours.
          Your account works meanwhile: nothing waits for the confirmation.
        </p>
        <div className="flex justify-center gap-2">
          {signedIn && user && !user.email_verified && (
            <Button variant="outline" disabled={resend.isPending} onClick={() => resend.mutate()}>
              {resend.isPending ? 'Sending...' : 'Send a new link'}
            </Button>
          )}
          {onward}
        </div>
      </div>
    );
  } else {
    body = (
      <div role="alert" className="grid gap-4 text-center">
        <TriangleAlert className="mx-auto size-10 text-destructive" aria-hidden="true" />
        <h2 className="text-xl font-semibold">We could not check this link</h2>
        <p className="text-muted-foreground">
          The server did not answer. Check your connection and try again.
        </p>
        <div className="flex justify-center gap-2">
          <Button
            onClick={() => {
              setOutcome(null);
              setRound((n) => n + 1);
            }}
          >
            Try again
          </Button>
        </div>
      </div>
    );
  }

  return (
    <AuthLayout
      title="Email verification"
      subtitle="Confirming the address of your Canto account."
      documentTitle="Email verification"
    >
      {body}
    </AuthLayout>
  );
}
