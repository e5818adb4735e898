import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { AppSidebar } from '@/web/shell/app-sidebar.tsx';
import { TopBar } from '@/web/shell/top-bar.tsx';
import { LoadingMessage } from '@/web/components/page-status.tsx';
import { useScreen } from '@/web/shell/route-guards.tsx';
import { PlayerBar } from '@/web/player/player-bar.tsx';
import { QueuePanel } from '@/web/player/queue-panel.tsx';
import { LyricsPanel } from '@/web/player/lyrics-panel.tsx';
import type { PlayerItem } from '@/web/player/use-player.ts';
import { LikeButton } from '@/web/features/library/index.ts';
import { usePremiumSync } from '@/web/features/premium/index.ts';

/** What the player bar offers for the current item: songs can be liked, episodes not (spec §4). */
const playerItemActions = (item: PlayerItem) =>
  item.kind === 'song' && <LikeButton songId={item.id} title={item.title} />;

export function AppShell() {
  const screen = useScreen();
  const title = screen?.title ?? 'Canto';
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  usePremiumSync();

  useEffect(() => {
    document.title = title === 'Home' ? 'Canto' : `${title} · Canto`;
  }, [title]);

  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>

      <aside className="fixed inset-y-0 left-0 z-40 hidden w-64 border-r border-sidebar-border md:block">
        <AppSidebar />
      </aside>

      <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/70 md:hidden" />
          <DialogPrimitive.Content
            className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r border-sidebar-border shadow-2xl outline-none md:hidden"
            aria-describedby={undefined}
          >
            <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
            <AppSidebar onNavigate={() => setMenuOpen(false)} />
            <DialogPrimitive.Close
              className="absolute top-5 right-4 rounded-sm p-1 opacity-70 outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/60"
              aria-label="Close navigation"
            >
              <X className="size-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>

      <div className="flex min-h-dvh min-w-0 flex-col md:pl-64">
        <TopBar title={title} onOpenMenu={() => setMenuOpen(true)} />
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none md:px-8 md:py-8">
          <Suspense fallback={<LoadingMessage />}>
            <Outlet />
          </Suspense>
        </main>
        <PlayerBar itemActions={playerItemActions} />
      </div>
      <QueuePanel />
      <LyricsPanel />
    </div>
  );
}
