// Spec §2 Podcast upload (artists only; the route's guard sends others to / with 'Only
// artists can upload podcasts'): switches between uploading an episode and creating or
// editing a show. The tab and the show are in the URL (?tab=episode|show|edit&show=<id>),
// so a show's page links straight to its upload or edit form.
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, Plus } from 'lucide-react';
import type { PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { EpisodeForm } from './episode-form.tsx';
import { ShowForm } from './show-form.tsx';
import { useMyPodcasts } from './use-podcasts.ts';

const TABS = ['episode', 'show', 'edit'] as const;
type Tab = (typeof TABS)[number];
const isTab = (v: string | null): v is Tab => (TABS as readonly (string | null)[]).includes(v);

function FormSkeleton() {
  return (
    <div aria-hidden="true" data-testid="podcast-form-loading" className="space-y-6">
      {[0, 1, 2].map((i) => (
        <div key={i} className="space-y-2">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}

function NoShowYet({ onCreate }: { onCreate: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center">
      <p className="font-medium">You have no show yet</p>
      <p className="text-sm text-muted-foreground">Episodes belong to a show: create one first.</p>
      <Button variant="brand" onClick={onCreate}>
        <Plus aria-hidden="true" />
        Create a show
      </Button>
    </div>
  );
}

function EditShow({
  shows,
  initialShowId,
}: {
  shows: PodcastShowDto[];
  initialShowId: string | null;
}) {
  const [id, setId] = useState(shows.find((s) => s.id === initialShowId)?.id ?? shows[0]?.id ?? '');
  const show = shows.find((s) => s.id === id);
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Label htmlFor="edit-show-choice">Show to edit</Label>
        <NativeSelect id="edit-show-choice" value={id} onChange={(e) => setId(e.target.value)}>
          {shows.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </NativeSelect>
      </div>
      {/* A new choice starts a fresh form with that show's values. */}
      {show && <ShowForm key={show.id} show={show} />}
    </div>
  );
}

export default function PodcastUploadPage() {
  const [params, setParams] = useSearchParams();
  const mine = useMyPodcasts();
  const shows = mine.data;
  const asked = params.get('tab');
  // Without a choice: the episode form, or the show form for an artist with no show yet.
  const tab: Tab = isTab(asked) ? asked : shows?.length === 0 ? 'show' : 'episode';
  const showId = params.get('show');

  const go = (next: Tab, show: string | null = showId) =>
    setParams(
      () => {
        const p = new URLSearchParams({ tab: next });
        if (show) p.set('show', show);
        return p;
      },
      { replace: true },
    );

  const body = (render: (shows: PodcastShowDto[]) => ReactNode) =>
    mine.isPending ? (
      <FormSkeleton />
    ) : mine.isError ? (
      <LoadFailed
        message={podcastMessages.loadPodcastsFailed}
        retrying={mine.isFetching}
        onRetry={() => void mine.refetch()}
      />
    ) : (
      render(mine.data)
    );

  return (
    <div className="mx-auto max-w-2xl">
      <Button asChild variant="ghost" className="-ml-3 mb-4">
        <Link to="/podcasts">
          <ArrowLeft aria-hidden="true" />
          Back to Podcasts
        </Link>
      </Button>

      <Tabs value={tab} onValueChange={(v) => isTab(v) && go(v)}>
        <TabsList aria-label="Podcast upload" className="w-full sm:w-fit">
          <TabsTrigger value="episode">Upload Episode</TabsTrigger>
          <TabsTrigger value="show">Create Show</TabsTrigger>
          {shows && shows.length > 0 && <TabsTrigger value="edit">Edit Show</TabsTrigger>}
        </TabsList>

        <TabsContent value="episode">
          <Card>
            <CardHeader>
              <CardTitle>Upload an episode</CardTitle>
              <CardDescription>Publish a new episode of one of your shows.</CardDescription>
            </CardHeader>
            <CardContent>
              {body((list) =>
                list.length === 0 ? (
                  <NoShowYet onCreate={() => go('show', null)} />
                ) : (
                  <EpisodeForm shows={list} initialShowId={showId} />
                ),
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="show">
          <Card>
            <CardHeader>
              <CardTitle>Create a show</CardTitle>
              <CardDescription>
                A show holds your episodes and has its own RSS feed for podcast apps.
              </CardDescription>
            </CardHeader>
            <CardContent>
              {/* Created: on to its first episode, the new show chosen. */}
              <ShowForm onSaved={(show) => go('episode', show.id)} />
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="edit">
          <Card>
            <CardHeader>
              <CardTitle>Edit a show</CardTitle>
              <CardDescription>Change a show's details or cover.</CardDescription>
            </CardHeader>
            <CardContent>
              {body((list) =>
                list.length === 0 ? (
                  <NoShowYet onCreate={() => go('show', null)} />
                ) : (
                  <EditShow shows={list} initialShowId={showId} />
                ),
              )}
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
