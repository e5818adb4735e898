// Spec §2 Search: a search box, Songs/Podcasts tabs, genre and sort filters and a Clear filters
// badge. §4: it runs 300 ms after typing stops and an empty query clears the results; §8: a
// failure clears them silently; §9: 20 results, the genre and sort values.
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Podcast as PodcastIcon, Search, SearchX, X } from 'lucide-react';
import type { PodcastDto } from '@/contracts/songs.contract.ts';
import {
  GENRE_FILTERS,
  GENRES,
  listSizes,
  SEARCH_SORTS,
  type GenreFilter,
  type SearchSort,
  type SearchType,
} from '@/core/validation/song.rules.ts';
import { useDebouncedValue } from '@/web/lib/use-debounced-value.ts';
import { useSearch } from '@/web/features/catalogue/use-catalogue.ts';
import { SongCardSkeleton, songGridClass } from '@/web/components/song/song-card.tsx';
import { SongCardWithActions } from './song-card-with-actions.tsx';
import { badgeVariants } from '@/web/components/ui/badge.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { sourceLabel } from '@/web/components/song/song-display.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { CoverArt } from '@/web/components/song/cover-art.tsx';

const DEFAULT_GENRE: GenreFilter = 'all';
const DEFAULT_SORT: SearchSort = 'relevance';

const genreName = (value: GenreFilter) =>
  value === 'all' ? 'All genres' : (GENRES.find((g) => g.toLowerCase() === value) ?? value);

const SORT_NAMES: Record<SearchSort, string> = {
  relevance: 'Relevance',
  popular: 'Most popular',
  recent: 'Most recent',
};

function Message({ icon: Icon, children }: { icon: typeof Search; children: string }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
      <Icon className="size-8" aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

function Filters({
  genre,
  sort,
  onGenre,
  onSort,
}: {
  genre: GenreFilter;
  sort: SearchSort;
  onGenre: (g: GenreFilter) => void;
  onSort: (s: SearchSort) => void;
}) {
  const ids = useId();
  const changed = genre !== DEFAULT_GENRE || sort !== DEFAULT_SORT;
  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
      <div className="min-w-36 flex-1 space-y-2 sm:w-44 sm:flex-none">
        <Label htmlFor={`${ids}-genre`}>Genre</Label>
        <NativeSelect
          id={`${ids}-genre`}
          value={genre}
          onChange={(e) => onGenre(e.target.value as GenreFilter)}
        >
          {GENRE_FILTERS.map((g) => (
            <option key={g} value={g}>
              {genreName(g)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="min-w-36 flex-1 space-y-2 sm:w-44 sm:flex-none">
        <Label htmlFor={`${ids}-sort`}>Sort by</Label>
        <NativeSelect
          id={`${ids}-sort`}
          value={sort}
          onChange={(e) => onSort(e.target.value as SearchSort)}
        >
          {SEARCH_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_NAMES[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {changed && (
        <button
          type="button"
          onClick={() => {
            onGenre(DEFAULT_GENRE);
            onSort(DEFAULT_SORT);
          }}
          className={cn(
            badgeVariants({ variant: 'secondary' }),
            'mb-2 cursor-pointer gap-1 px-3 py-1 outline-none hover:bg-secondary/70 focus-visible:ring-[3px] focus-visible:ring-ring/60',
          )}
        >
          Clear filters
          <X className="size-3" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

function PodcastRow({ podcast }: { podcast: PodcastDto }) {
  return (
    <article className="flex gap-4 rounded-xl bg-card/60 p-3">
      <CoverArt
        src={podcast.cover_art_url}
        className="size-16 shrink-0 rounded-lg bg-muted object-cover"
      />
      <div className="min-w-0">
        <h3 className="truncate font-semibold">{podcast.title}</h3>
        {podcast.description && (
          <p className="line-clamp-2 text-sm text-muted-foreground">{podcast.description}</p>
        )}
      </div>
    </article>
  );
}

function LoadingGrid() {
  return (
    <div className={songGridClass} aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <SongCardSkeleton key={i} />
      ))}
    </div>
  );
}

export default function SearchPage() {
  const ids = useId();
  // The query lives in the URL (/search?q=…): a link shares it, back and forward step through
  // the searches made. The box follows the URL when it changes from outside (history, a link).
  const [params, setParams] = useSearchParams();
  const urlQ = (params.get('q') ?? '').trim();
  const [text, setText] = useState(urlQ);
  const [seenUrlQ, setSeenUrlQ] = useState(urlQ);
  if (urlQ !== seenUrlQ) {
    setSeenUrlQ(urlQ);
    if (urlQ !== text.trim()) setText(urlQ);
  }
  const [type, setType] = useState<SearchType>('songs');
  const [genre, setGenre] = useState<GenreFilter>(DEFAULT_GENRE);
  const [sort, setSort] = useState<SearchSort>(DEFAULT_SORT);
  const debounced = useDebouncedValue(text, listSizes.searchDebounceMs);
  // Clearing the box clears at once; only typing waits for the debounce; a query the URL
  // already holds (a link, back/forward) runs at once. While typing settles, the last settled
  // query stays: a stale debounced value must not reach the URL and then overwrite the box.
  const typed = text.trim();
  const q = !typed ? '' : typed === urlQ ? urlQ : debounced === text ? typed : urlQ;
  useEffect(() => {
    // Each settled query is a history entry of its own.
    if (q !== urlQ) setParams(q ? { q } : {});
  }, [q, urlQ, setParams]);
  const songs = type === 'songs';

  const { data, isFetching, isPlaceholderData } = useSearch({
    q,
    type,
    // Genre and sort are song filters; podcasts are found by title or description only.
    genre: songs ? genre : DEFAULT_GENRE,
    sort: songs ? sort : DEFAULT_SORT,
    limit: listSizes.search,
  });
  const results = q ? data : undefined;
  const loading = !!q && !results && isFetching;

  const songResults = results?.songs ?? [];
  const podcastResults = results?.podcasts ?? [];
  const external = results?.external ? songResults.find((s) => s.source)?.source : undefined;

  return (
    <div className="@container mx-auto max-w-[1600px] space-y-6">
      <div className="relative max-w-2xl">
        <Label htmlFor={`${ids}-q`} className="sr-only">
          Search songs and podcasts
        </Label>
        <Search
          className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id={`${ids}-q`}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="What do you want to listen to?"
          autoComplete="off"
          autoFocus
          className="h-12 rounded-full pl-12 text-base"
        />
      </div>

      <Tabs value={type} onValueChange={(v) => setType(v as SearchType)}>
        <TabsList>
          <TabsTrigger value="songs">Songs</TabsTrigger>
          <TabsTrigger value="podcasts">Podcasts</TabsTrigger>
        </TabsList>

        <TabsContent value="songs" className="space-y-6">
          <Filters genre={genre} sort={sort} onGenre={setGenre} onSort={setSort} />
          <section
            aria-label="Song results"
            aria-busy={isFetching}
            className={cn(isPlaceholderData && 'opacity-70 transition-opacity')}
          >
            {!q ? (
              <Message icon={Search}>Search songs by title or genre.</Message>
            ) : loading ? (
              <LoadingGrid />
            ) : songResults.length === 0 ? (
              <Message icon={SearchX}>{`No songs found for "${q}"`}</Message>
            ) : (
              <>
                {external && (
                  <p className="mb-4 text-sm text-muted-foreground">
                    Nothing on Canto matched, so these are 30-second previews from{' '}
                    {sourceLabel(external)}.
                  </p>
                )}
                <ul className={songGridClass}>
                  {songResults.map((song) => (
                    <li key={song.id}>
                      <SongCardWithActions song={song} />
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
        </TabsContent>

        <TabsContent value="podcasts">
          <section aria-label="Podcast results" aria-busy={isFetching}>
            {!q ? (
              <Message icon={PodcastIcon}>Search podcasts by title or description.</Message>
            ) : loading ? (
              <div className="space-y-3" aria-hidden="true">
                {Array.from({ length: 3 }, (_, i) => (
                  <Skeleton key={i} className="h-22 w-full rounded-xl" />
                ))}
              </div>
            ) : podcastResults.length === 0 ? (
              <Message icon={SearchX}>{`No podcasts found for "${q}"`}</Message>
            ) : (
              <ul className="grid gap-3 @3xl:grid-cols-2">
                {podcastResults.map((p) => (
                  <li key={p.id}>
                    <PodcastRow podcast={p} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </TabsContent>
      </Tabs>
    </div>
  );
}
