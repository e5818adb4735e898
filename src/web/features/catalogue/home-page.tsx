import { Link } from 'react-router';
import { Compass, Sparkles } from 'lucide-react';
import { useHomeSongs } from '@/web/features/catalogue/use-home-songs.ts';
import { useSession } from '@/web/session/use-session.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { HomeTracks } from '@/web/features/catalogue/home-tracks.tsx';
import { AdSlot } from '@/web/features/ads/index.ts';
import { CompanionPanel } from '@/web/features/companion/index.ts';
import { GenerateMixButton } from '@/web/features/recommendations/index.ts';

function AiBanner() {
  return (
    <section
      aria-labelledby="ai-banner-title"
      className="relative overflow-hidden rounded-2xl border border-white/10 bg-[radial-gradient(120%_140%_at_0%_0%,oklch(0.42_0.2_292)_0%,oklch(0.3_0.16_320)_45%,oklch(0.2_0.05_285)_100%)] p-6 shadow-xl md:p-10"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -right-16 size-72 rounded-full bg-fuchsia-500/25 blur-3xl"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -bottom-28 left-1/3 size-72 rounded-full bg-violet-500/20 blur-3xl"
      />
      <div className="relative max-w-2xl">
        <p className="mb-3 inline-flex items-center gap-1.5 rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-white">
          <Sparkles className="size-3.5" aria-hidden="true" />
          Powered by AI
        </p>
        <h2
          id="ai-banner-title"
          className="text-3xl font-extrabold tracking-tight text-white md:text-4xl"
        >
          Discover Your Perfect Sound
        </h2>
        <p className="mt-3 text-base text-white/85 md:text-lg">
          Get personalized playlists and AI recommendations tuned to what you love to hear.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <GenerateMixButton className="bg-white text-neutral-900 hover:bg-white/90" />
          <Button
            asChild
            size="lg"
            variant="outline"
            className="border-white/40 bg-white/5 text-white hover:bg-white/15 hover:text-white"
          >
            <Link to="/recommendations">
              <Compass aria-hidden="true" />
              Explore Now
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

export default function HomePage() {
  const { user, session } = useSession();
  const { data, isPending, isError, isFetching, refetch } = useHomeSongs();
  const name = user?.display_name?.trim();
  // 'Welcome back' is for someone who has been here before; the session sign-up opened is not.
  const greeting = session?.returning === false ? 'Welcome to Canto' : 'Welcome back';

  return (
    <div className="@container mx-auto max-w-[1600px]">
      <p className="mb-4 text-sm text-muted-foreground">
        {name ? `${greeting}, ${name}` : greeting}
      </p>
      <AiBanner />
      <AdSlot />
      <CompanionPanel />
      <HomeTracks
        data={data}
        isPending={isPending}
        isError={isError}
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    </div>
  );
}
