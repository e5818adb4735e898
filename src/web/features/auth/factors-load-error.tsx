import { errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';

/** The factor list could not be loaded: the reason and a retry (challenge and Security screen). */
export function FactorsLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="grid gap-2 text-sm">
      <p>{errorMessage(error, 'Could not load your security methods.')}</p>
      <Button variant="outline" size="sm" className="w-fit" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
