// Spec §2 Browse: Trending Now (6), New Releases (6) and Browse by Genre tiles. A tile opens
// /browse?genre=<name>: that genre's songs on the same screen, so the route list stays §2's.
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import {
  ArrowLeft,
  Disc3,
  Guitar,
  Heart,
  Mic2,
  Music2,
  Piano,
  Radio,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { GENRES, songLimits, type Genre } from '@/core/validation/song.rules.ts';
import { useBrowseSongs, useGenreSongs } from '@/web/features/catalogue/use-catalogue.ts';
import { SongSection } from '@/web/features/catalogue/song-section.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';

const TILE_STYLE: Record<Genre, { icon: LucideIcon; className: string }> = {
  Pop: { icon: Heart, className: 'from-pink-500 to-rose-600' },
  Rock: { icon: Guitar, className: 'from-red-600 to-orange-600' },
  'Hip Hop': { icon: Mic2, className: 'from-amber-500 to-yellow-700' },
  Electronic: { icon: Zap, className: 'from-cyan-500 to-blue-700' },
  Jazz: { icon: Music2, className: 'from-indigo-500 to-violet-700' },
  Classical: { icon: Piano, className: 'from-stone-500 to-stone-700' },
  'R&B': { icon: Disc3, className: 'from-fuchsia-600 to-purple-800' },
  Country: { icon: Radio, className: 'from-lime-600 to-emerald-700' },
};

/** The genre in the address, written as its tile when it is one of them. */
function genreParam(raw: string | null): string | null {
  const g = raw?.trim();
  if (!g || g.length > songLimits.genreMax) return null;
  return GENRES.find((known) => known.toLowerCase() === g.toLowerCase()) ?? g;
}

function GenreTiles({ selected }: { selected: string | null }) {
  return (
    <section aria-labelledby="browse-genres" className="mt-10">
      <h2 id="browse-genres" className="mb-4 text-xl font-bold tracking-tight md:text-2xl">
        Browse by Genre
      </h2>
      <ul className="grid grid-cols-2 gap-3 @lg:grid-cols-3 @3xl:grid-cols-4 @lg:gap-4">
        {GENRES.map((genre) => {
          const { icon: Icon, className } = TILE_STYLE[genre];
          const current = selected === genre;
          return (
            <li key={genre}>
              <Link
                to={`/browse?genre=${encodeURIComponent(genre)}`}
                aria-current={current ? 'page' : undefined}
                className={cn(
                  'group relative flex h-24 items-end overflow-hidden rounded-xl bg-gradient-to-br p-4 shadow-md transition-transform outline-none hover:scale-[1.02] focus-visible:ring-[3px] focus-visible:ring-ring md:h-28',
                  className,
                  current && 'ring-2 ring-white',
                )}
              >
                <span className="relative z-10 text-lg font-bold text-white drop-shadow md:text-xl">
                  {genre}
                </span>
                <Icon
                  aria-hidden="true"
                  className="absolute -right-2 -bottom-3 size-16 rotate-12 text-white/25 transition-transform group-hover:rotate-6 md:size-20"
                />
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function useLoadFailure(failed: boolean) {
  useEffect(() => {
    // A stable id keeps StrictMode's double effect (and both sections) to one toast.
    if (failed)
      toast.error('Error', { id: 'songs-load-failed', description: 'Failed to load songs' });
  }, [failed]);
}

function GenreView({ genre }: { genre: string }) {
  const { data, isPending, isError } = useGenreSongs(genre);
  useLoadFailure(isError);
  return (
    <SongSection
      id="genre-songs"
      title={genre}
      songs={data ?? []}
      loading={isPending}
      className="mt-0"
      action={
        <Button asChild variant="ghost" size="sm">
          <Link to="/browse">
            <ArrowLeft aria-hidden="true" />
            All of Browse
          </Link>
        </Button>
      }
    />
  );
}

function Highlights() {
  const { data, isPending, isError } = useBrowseSongs();
  useLoadFailure(isError);
  return (
    <>
      <SongSection
        id="trending-now"
        title="Trending Now"
        songs={data?.trending ?? []}
        loading={isPending}
        className="mt-0"
      />
      <SongSection
        id="new-releases"
        title="New Releases"
        songs={data?.newReleases ?? []}
        loading={isPending}
      />
    </>
  );
}

export default function BrowsePage() {
  const [params] = useSearchParams();
  const genre = genreParam(params.get('genre'));
  return (
    <div className="@container mx-auto max-w-[1600px]">
      {genre ? <GenreView key={genre} genre={genre} /> : <Highlights />}
      <GenreTiles selected={genre} />
    </div>
  );
}
