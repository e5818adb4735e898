import { lazy, memo, Suspense, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LoaderCircle } from 'lucide-react';
import { signInProblem, signUpProblem } from '@/core/validation/auth.check.ts';
import { useSession, useSignIn, useSignOut, useSignUp } from '@/web/session/use-session.ts';
import { authTab, returnTo } from '@/web/session/return-to.ts';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Checkbox } from '@/web/components/ui/checkbox.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { AuthLayout } from '@/web/features/auth/auth-layout.tsx';
import { Field, serverErrorToast, validationToast } from '@/web/features/auth/auth-form-parts.tsx';

// Only an account with a second factor sees the challenge: its code loads when it is needed.
const MfaChallenge = lazy(() =>
  import('@/web/features/auth/mfa-challenge.tsx').then((m) => ({ default: m.MfaChallenge })),
);

const ARTIST_LABEL = 'Request artist status (upload music & podcasts)';

function SignInForm() {
  const signIn = useSignIn();
  const navigate = useNavigate();
  // Back to the link that sent the visitor here (a shared playlist, a profile), else Home.
  const { state, search } = useLocation();
  const back = returnTo(state, search);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = signInProblem({ email, password });
    if (problem) return validationToast(problem);
    // mutateAsync, not mutate callbacks: adopting the session unmounts this page (the guard
    // sends a signed-in visitor to /), and per-call callbacks of an unmounted form never run.
    signIn.mutateAsync({ email, password }).then(
      (res) => {
        // A second factor is owed: the page swaps to the challenge instead.
        if (res.aal === 'aal1' && res.next_aal === 'aal2') return;
        toast.success('Signed in successfully!');
        navigate(back, { replace: true });
      },
      (err: unknown) => serverErrorToast(err, 'Failed to sign in'),
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Sign in">
      <Field
        id="signin-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id="signin-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        placeholder="••••••••"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Link
        to="/forgot-password"
        state={{ email }}
        className="-mt-2 justify-self-end text-sm font-medium underline underline-offset-4 hover:text-primary"
      >
        Forgot password?
      </Link>
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={signIn.isPending}>
        {signIn.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {signIn.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}

function SignUpForm() {
  const signUp = useSignUp();
  const navigate = useNavigate();
  const { state, search } = useLocation();
  const back = returnTo(state, search);
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isArtist, setIsArtist] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = { email, password, display_name: displayName, is_artist: isArtist };
    // The same rules as the server (auth.check.ts, tested against the zod ones), so the
    // first message matches what it would say.
    const problem = signUpProblem(body);
    if (problem) return validationToast(problem);
    signUp.mutateAsync(body).then(
      () => {
        toast.success(
          isArtist
            ? 'Account created! Your artist request is pending admin approval.'
            : 'Account created successfully!',
        );
        navigate(back, { replace: true });
      },
      (err: unknown) => serverErrorToast(err, 'Failed to create account'),
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Sign up">
      <Field
        id="signup-display-name"
        label="Display name"
        autoComplete="nickname"
        placeholder="How listeners will see you"
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
      />
      <Field
        id="signup-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id="signup-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder="At least 6 characters"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="rounded-lg border bg-muted/40 p-4">
        <div className="flex items-start gap-3">
          <Checkbox
            id="signup-artist"
            checked={isArtist}
            onCheckedChange={(v) => setIsArtist(v === true)}
            aria-describedby="signup-artist-note"
            className="mt-0.5"
          />
          <Label htmlFor="signup-artist" className="leading-snug">
            {ARTIST_LABEL}
          </Label>
        </div>
        <p id="signup-artist-note" className="mt-2 pl-7 text-xs text-muted-foreground">
          Artist accounts require admin approval before you can upload content.
        </p>
      </div>
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={signUp.isPending}>
        {signUp.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {signUp.isPending ? 'Creating account...' : 'Sign Up'}
      </Button>
    </form>
  );
}

// memo: the page re-renders when the session probe answers; the forms don't need to.
const GuestForms = memo(function GuestForms({ tab }: { tab: 'sign-in' | 'sign-up' }) {
  return (
    <Tabs defaultValue={tab}>
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="sign-in">Sign In</TabsTrigger>
        <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
      </TabsList>
      <TabsContent value="sign-in" className="pt-2">
        <SignInForm />
      </TabsContent>
      <TabsContent value="sign-up" className="pt-2">
        <SignUpForm />
      </TabsContent>
    </Tabs>
  );
});

export default function AuthPage() {
  const { needsMfa } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { state, search } = useLocation();

  return (
    <AuthLayout
      title="Welcome to Canto"
      subtitle="Sign in or create an account to start listening."
      documentTitle="Sign in"
    >
      {needsMfa ? (
        <Suspense fallback={<LoadingMessage label="Loading your security methods..." />}>
          <MfaChallenge
            onVerified={() => {
              toast.success('Signed in successfully!');
              navigate(returnTo(state, search), { replace: true });
            }}
            onCancel={() => signOut.mutate()}
            cancelLabel="Sign out"
          />
        </Suspense>
      ) : (
        <GuestForms tab={authTab(state, search)} />
      )}
    </AuthLayout>
  );
}
