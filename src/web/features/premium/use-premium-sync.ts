import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribePremiumChanges } from './use-premium.ts';

/**
 * Mounted once by the signed-in shell: returning from checkout or the portal (another tab)
 * refreshes premium everywhere, the player's flag included, without a reload.
 */
export function usePremiumSync(): void {
  const qc = useQueryClient();
  useEffect(() => subscribePremiumChanges(qc), [qc]);
}
