import { LoaderCircle, RotateCw, WifiOff } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { BrandMark } from '@/web/components/brand.tsx';

/** The loading message while something (the session, a screen's code) resolves. */
export function LoadingMessage({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex items-center justify-center gap-3 py-16 text-muted-foreground"
    >
      <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function FullPageLoading() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-2">
      <BrandMark className="size-12 animate-pulse" />
      <LoadingMessage />
    </main>
  );
}

export function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <WifiOff className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-xl font-semibold">Can't reach Canto</h1>
      <p className="max-w-sm text-muted-foreground">
        Network error. Please check your connection and try again.
      </p>
      <Button onClick={onRetry}>Try again</Button>
    </main>
  );
}

/** A list that could not load: the spec's message and a way to ask again. */
export function LoadFailed({
  message,
  retrying,
  onRetry,
  retryLabel = 'Try again',
}: {
  message: string;
  retrying: boolean;
  onRetry: () => void;
  retryLabel?: string;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-destructive/40 px-6 py-12 text-center"
    >
      <p>{message}</p>
      <Button variant="outline" disabled={retrying} onClick={onRetry}>
        <RotateCw aria-hidden="true" />
        {retryLabel}
      </Button>
    </div>
  );
}
