// What the media pipeline is doing with an item its owner sees (an artist's song, a creator's
// episode): nothing once ready, 'Processing…' until the streaming files exist, and a failure
// with Retry when the job gave up. The feature says what Retry does.
import { AlertTriangle, LoaderCircle, RotateCw } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';

export type MediaStatus = 'processing' | 'ready' | 'failed';

export function MediaProcessingStatus({
  status,
  title,
  retrying,
  onRetry,
  testId,
  className,
  spread = false,
}: {
  status: MediaStatus;
  /** The item's title, for the Retry button's accessible name. */
  title: string;
  retrying: boolean;
  onRetry: () => void;
  testId: string;
  className?: string;
  /** The failure's words and Retry at either end of the line (a song card's width). */
  spread?: boolean;
}) {
  if (status === 'ready') return null;

  if (status === 'processing') {
    return (
      <p
        data-testid={testId}
        className={cn('flex items-center gap-1.5 text-xs text-muted-foreground', className)}
      >
        <LoaderCircle className="size-3.5 shrink-0 animate-spin" aria-hidden="true" />
        Processing…
      </p>
    );
  }

  return (
    // Wraps on narrow cards so the words are never cut; red-400 reads on the dark card.
    <div
      data-testid={testId}
      className={cn(
        'flex flex-wrap items-center gap-x-2 gap-y-1',
        spread && 'justify-between',
        className,
      )}
    >
      <p className="flex items-center gap-1.5 text-xs text-red-400">
        <AlertTriangle className="size-3.5 shrink-0" aria-hidden="true" />
        Processing failed
      </p>
      <Button
        variant="outline"
        size="sm"
        className="h-7 shrink-0 px-2 text-xs"
        aria-label={`Retry processing ${title}`}
        disabled={retrying}
        onClick={onRetry}
      >
        {retrying ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <RotateCw aria-hidden="true" />
        )}
        Retry
      </Button>
    </div>
  );
}
