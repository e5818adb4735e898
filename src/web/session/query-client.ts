// The app's one query cache: every screen's server data, the session and the subscription.
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/web/lib/api-client.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // Client errors (4xx) are answers, not glitches: don't retry them.
      retry: (count, e) => !(isApiError(e) && e.status >= 400 && e.status < 500) && count < 2,
    },
  },
});
