// The admin ad inventory at /admin/ads (docs/decisions/0023; admins only, app.tsx): every ad with its
// state, New Ad and Edit (the form in a dialog), Deactivate / Activate, and the audio's media
// status while it processes (the list asks again every 2 s until it settles), and each ad's
// impressions (all time, last 30 days).
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import {
  AlertTriangle,
  ExternalLink,
  ImageIcon,
  LoaderCircle,
  Megaphone,
  Music,
  Pencil,
  Plus,
  Power,
  PowerOff,
} from 'lucide-react';
import type { AdminAdDto, AdminAdListItem } from '@/contracts/ads.contract.ts';
import { adMessages } from '@/core/validation/ad.rules.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { errorMessage } from '@/web/lib/api-client.ts';
import { formatTime } from '@/web/lib/format.ts';
import { AdForm } from './ad-form.tsx';
import { impressionCountText } from './impression-count.ts';
import { useAdminAds, useSetAdActive } from './use-ads.ts';

type Editing = { ad?: AdminAdDto } | null;

function AudioStatus({ ad }: { ad: AdminAdDto }) {
  if (!ad.audio_url) return <span className="text-xs text-muted-foreground">No audio</span>;
  if (ad.status === 'processing')
    return (
      <span role="status" className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <LoaderCircle className="size-3.5 animate-spin" aria-hidden="true" />
        Processing audio…
      </span>
    );
  if (ad.status === 'failed')
    return (
      <span className="flex items-center gap-1.5 text-xs text-red-400">
        <AlertTriangle className="size-3.5" aria-hidden="true" />
        Audio processing failed (the original plays)
      </span>
    );
  return (
    <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
      <Music className="size-3.5" aria-hidden="true" />
      Audio ready
    </span>
  );
}

function AdRow({
  ad,
  busy,
  onEdit,
  onToggle,
}: {
  ad: AdminAdListItem;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
}) {
  return (
    <li data-testid="ad-row" className="flex flex-col gap-4 px-6 py-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-4">
        {ad.image_url ? (
          <img src={ad.image_url} alt="" className="size-16 shrink-0 rounded-lg object-cover" />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-16 shrink-0 items-center justify-center rounded-lg bg-muted"
          >
            <ImageIcon className="size-6 text-muted-foreground" />
          </span>
        )}
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium break-words">{ad.title}</p>
            {ad.active ? (
              <Badge variant="secondary">Active</Badge>
            ) : (
              <Badge variant="outline">Inactive</Badge>
            )}
          </div>
          {ad.description && (
            <p className="line-clamp-2 text-sm break-words text-muted-foreground">
              {ad.description}
            </p>
          )}
          <p data-testid="ad-impressions" className="text-xs text-muted-foreground tabular-nums">
            {impressionCountText(ad.impressions, ad.impressions_30d)}
          </p>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <span className="text-xs text-muted-foreground tabular-nums">
              {formatTime(ad.duration)}
            </span>
            <AudioStatus ad={ad} />
            {ad.target_url && (
              <a
                href={ad.target_url}
                target="_blank"
                rel="noopener noreferrer"
                className="flex max-w-64 items-center gap-1 truncate text-xs text-muted-foreground underline underline-offset-4 hover:text-foreground"
              >
                <span className="truncate">{ad.target_url}</span>
                <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
              </a>
            )}
          </div>
        </div>
      </div>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${ad.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={onToggle}
          disabled={busy}
          aria-label={`${ad.active ? 'Deactivate' : 'Activate'} ${ad.title}`}
        >
          {busy ? (
            <LoaderCircle className="animate-spin" aria-hidden="true" />
          ) : ad.active ? (
            <PowerOff aria-hidden="true" />
          ) : (
            <Power aria-hidden="true" />
          )}
          {ad.active ? 'Deactivate' : 'Activate'}
        </Button>
      </div>
    </li>
  );
}

export default function AdminAdsPage() {
  const ads = useAdminAds();
  const setActive = useSetAdActive();
  const [editing, setEditing] = useState<Editing>(null);

  useEffect(() => {
    if (ads.isError) toast.error('Error', { description: adMessages.loadFailed });
  }, [ads.isError]);

  const toggle = (ad: AdminAdDto) =>
    setActive.mutate(
      { id: ad.id, active: !ad.active },
      {
        onSuccess: (saved) =>
          toast.success(saved.active ? adMessages.activated : adMessages.deactivated, {
            description: saved.title,
          }),
        onError: (err) =>
          toast.error('Error', { description: errorMessage(err, adMessages.updateFailed) }),
      },
    );

  const list = ads.data?.items ?? [];

  return (
    <div className="mx-auto max-w-4xl">
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Ad Inventory</CardTitle>
            <CardDescription>
              Active ads take turns on Home for listeners without premium, least recently shown
              first.
            </CardDescription>
          </div>
          <Button variant="brand" onClick={() => setEditing({})}>
            <Plus aria-hidden="true" />
            New Ad
          </Button>
        </CardHeader>
        <CardContent className="px-0">
          {ads.isPending ? (
            <ul aria-label="Loading ads" aria-busy="true" className="divide-y">
              {Array.from({ length: 3 }, (_, i) => (
                <li key={i} className="flex items-center gap-4 px-6 py-4">
                  <Skeleton className="size-16 rounded-lg" />
                  <div className="flex-1 space-y-2">
                    <Skeleton className="h-4 w-48" />
                    <Skeleton className="h-3 w-72" />
                  </div>
                </li>
              ))}
            </ul>
          ) : list.length === 0 ? (
            <div className="flex flex-col items-center gap-3 px-6 py-12 text-center">
              <Megaphone className="size-10 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium">No ads yet</p>
              <p className="text-sm text-muted-foreground">
                Listeners without premium see no advertisement card until one is active.
              </p>
            </div>
          ) : (
            <ul aria-label="Ads" className="divide-y">
              {list.map((ad) => (
                <AdRow
                  key={ad.id}
                  ad={ad}
                  busy={setActive.isPending && setActive.variables?.id === ad.id}
                  onEdit={() => setEditing({ ad })}
                  onToggle={() => toggle(ad)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>{editing?.ad ? 'Edit Ad' : 'New Ad'}</DialogTitle>
            <DialogDescription>
              Image and audio are checked like song uploads; the audio plays when the card appears.
            </DialogDescription>
          </DialogHeader>
          {editing && (
            <AdForm
              key={editing.ad?.id ?? 'new'}
              ad={editing.ad}
              onSaved={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
