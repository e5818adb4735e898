import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';

/**
 * Stripe Checkout sends the tipper back to the artist's profile with ?tip=success|canceled:
 * say so once and drop the marker (the webhook, not this page, is what pays the tip).
 */
export function useTipReturn(): void {
  const [params, setParams] = useSearchParams();
  const outcome = params.get('tip');
  useEffect(() => {
    if (outcome !== 'success' && outcome !== 'canceled') return;
    if (outcome === 'success')
      toast.success('Thank you for your tip!', {
        description: 'The artist will see it once the payment is confirmed.',
      });
    else toast('Tip canceled', { description: 'Nothing was charged.' });
    setParams(
      (p) => {
        p.delete('tip');
        return p;
      },
      { replace: true },
    );
  }, [outcome, setParams]);
}
