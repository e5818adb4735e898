import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribePremiumChanges } from './use-premium.ts';

/**
 * Mounted once for a signed-in listener (by the player, which holds the premium flag):
 * returning from checkout or the portal refreshes premium everywhere without a reload.
 */
export function usePremiumSync(enabled: boolean): void {
  const qc = useQueryClient();
  useEffect(() => (enabled ? subscribePremiumChanges(qc) : undefined), [qc, enabled]);
}
