// /show/{id} and /episode/{id}, the share links of podcasts: they open the podcasts screen on
// the show (/podcasts?show=…), which lists the episode. An episode's link names its show
// (?show=…); a link without one finds the show among the listed ones.
import { useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { podcastsApi } from '@/contracts/api/podcasts.api.ts';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { api } from '@/web/lib/api-client.ts';

const showPage = (showId: string) => `/podcasts?show=${encodeURIComponent(showId)}`;

export function ShowLinkPage() {
  const { id = '' } = useParams<{ id: string }>();
  return <Navigate to={showPage(id)} replace />;
}

async function findShowOf(episodeId: string, signal: AbortSignal): Promise<string | null> {
  const { items } = await api(podcastsApi.all, { signal });
  for (const show of items) {
    const detail = await api(podcastsApi.get, { params: { id: show.id }, signal });
    if (detail.episodes.some((e) => e.id === episodeId)) return show.id;
  }
  return null;
}

export function EpisodeLinkPage() {
  const { id = '' } = useParams<{ id: string }>();
  const hinted = useSearchParams()[0].get('show');
  const [found, setFound] = useState<string | null | undefined>(hinted ?? undefined);
  useEffect(() => {
    if (hinted) return;
    const abort = new AbortController();
    findShowOf(id, abort.signal).then(setFound, () => setFound(null));
    return () => abort.abort();
  }, [id, hinted]);
  if (found === undefined) return <LoadingMessage label="Finding the episode..." />;
  return <Navigate to={found ? showPage(found) : '/podcasts'} replace />;
}
