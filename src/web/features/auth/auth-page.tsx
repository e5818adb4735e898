import {
  lazy,
  memo,
  Suspense,
  useEffect,
  useState,
  type ComponentProps,
  type FormEvent,
} from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Headphones, LoaderCircle, Mic, Sparkles } from 'lucide-react';
import { signInProblem, signUpProblem } from '@/core/validation/auth.check.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { useSession, useSignIn, useSignOut, useSignUp } from '@/web/session/use-session.ts';
import { BrandMark, BrandName } from '@/web/components/brand.tsx';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Card, CardContent } from '@/web/components/ui/card.tsx';
import { Checkbox } from '@/web/components/ui/checkbox.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';

// Only an account with a second factor sees the challenge: its code loads when it is needed.
const MfaChallenge = lazy(() =>
  import('@/web/features/auth/mfa-challenge.tsx').then((m) => ({ default: m.MfaChallenge })),
);

const ARTIST_LABEL = 'Request artist status (upload music & podcasts)';

function validationToast(message: string) {
  toast.error('Validation Error', { description: message });
}

function serverErrorToast(e: unknown, fallback: string) {
  toast.error('Error', { description: errorMessage(e, fallback) });
}

function Field({
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

function SignInForm() {
  const signIn = useSignIn();
  const navigate = useNavigate();
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
        navigate('/', { replace: true });
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
        navigate('/', { replace: true });
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
const GuestForms = memo(function GuestForms() {
  return (
    <Tabs defaultValue="sign-in">
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

const highlights = [
  { icon: Headphones, text: 'Stream songs and podcasts from independent artists' },
  { icon: Sparkles, text: 'Personalized playlists and AI recommendations' },
  { icon: Mic, text: 'Upload your own music and get paid for every listen' },
];

export default function AuthPage() {
  const { needsMfa } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  useEffect(() => {
    document.title = 'Sign in · Canto';
  }, []);

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <aside
        aria-label="About Canto"
        className="relative hidden overflow-hidden bg-[radial-gradient(110%_120%_at_0%_0%,oklch(0.4_0.2_292)_0%,oklch(0.27_0.14_330)_50%,oklch(0.16_0.03_285)_100%)] p-12 lg:flex lg:flex-col lg:justify-between"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -bottom-24 size-96 rounded-full bg-fuchsia-500/20 blur-3xl"
        />
        <div className="flex items-center gap-2.5 text-white">
          <BrandMark className="size-9" />
          <BrandName className="text-2xl" />
        </div>
        <div className="relative max-w-md">
          <p className="text-4xl leading-tight font-extrabold tracking-tight text-white">
            Every song has a voice. Find yours.
          </p>
          <ul className="mt-8 grid gap-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-white/90">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/10">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white/70">Self-hosted music &amp; podcast streaming.</p>
      </aside>

      <main className="flex items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <div className="mb-8 text-center">
            <div className="mb-4 flex items-center justify-center gap-2.5 lg:hidden">
              <BrandMark className="size-10" />
            </div>
            <h1 className="text-3xl font-bold tracking-tight">Welcome to Canto</h1>
            <p className="mt-2 text-muted-foreground">
              Sign in or create an account to start listening.
            </p>
          </div>
          <Card className="bg-card/80 shadow-xl backdrop-blur">
            <CardContent className="p-6">
              {needsMfa ? (
                <Suspense fallback={<LoadingMessage label="Loading your security methods..." />}>
                  <MfaChallenge
                    onVerified={() => {
                      toast.success('Signed in successfully!');
                      navigate('/', { replace: true });
                    }}
                    onCancel={() => signOut.mutate()}
                    cancelLabel="Sign out"
                  />
                </Suspense>
              ) : (
                <GuestForms />
              )}
            </CardContent>
          </Card>
        </div>
      </main>
    </div>
  );
}
