import { lazy, Suspense } from 'react';
import { FullPageLoading } from '@/web/components/page-status.tsx';

// The signed-in shell (sidebar, menus, dialog, player bar) is its own chunk: /auth, the
// first screen of every new visitor, doesn't download or run it. main.tsx starts loading it
// early on the other paths.
export const loadAppShell = () => import('@/web/shell/app-shell.tsx');

const Shell = lazy(() => loadAppShell().then((m) => ({ default: m.AppShell })));

export function AppShell() {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <Shell />
    </Suspense>
  );
}
