// The service worker (docs/decisions/0036-offline-downloads.md): precaches the app shell so it
// opens offline, falls back to the shell for app pages the network cannot answer, and answers
// downloads (/offline/…) from Cache Storage, Range requests included, while the stored
// subscription check allows them. It leaves /api, /media, /rest and /embed to the network.
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { rangeResponse } from './lib/offline/byte-range.ts';
import {
  DOWNLOADS_CACHE,
  DOWNLOADS_PATH,
  ENTITLEMENT_KEY,
  parseAudioKey,
  type DownloadsEntitlement,
} from './lib/offline/download-keys.ts';

declare global {
  interface Window {
    /** The shell's files, written in by the build (vite-plugin-pwa's injectManifest). */
    __WB_MANIFEST: (PrecacheEntry | string)[];
  }
}
const worker = self as unknown as { skipWaiting(): Promise<void> };

// A new build takes over at once: the shell's files are hashed, the old ones stay precached
// until the new worker activates.
void worker.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

/** Paths the server answers itself, pages included (embeds, the Subsonic API). */
const SERVER_ONLY = [/^\/api(\/|$)/, /^\/media\//, /^\/rest(\/|$)/, /^\/embed\//, /^\/offline\//];

// App pages: the network first (the server adds its first-load hints and share tags); the
// precached shell when it cannot answer (offline).
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (error) {
        const shell = await matchPrecache('index.html');
        if (shell) return shell;
        throw error;
      }
    },
    { denylist: SERVER_ONLY },
  ),
);

async function downloadsPlayable(cache: Cache): Promise<boolean> {
  const stored = await cache.match(ENTITLEMENT_KEY);
  if (!stored) return false;
  return ((await stored.json()) as DownloadsEntitlement).subscribed;
}

// Downloads: their stable keys, answered from the cache only. Audio plays only while the
// last subscription check said subscribed (a lapsed subscription's files stay, silent).
registerRoute(
  ({ url, request }) =>
    url.origin === location.origin &&
    url.pathname.startsWith(DOWNLOADS_PATH) &&
    request.method === 'GET',
  async ({ url, request }) => {
    const cache = await caches.open(DOWNLOADS_CACHE);
    if (parseAudioKey(url.pathname) && !(await downloadsPlayable(cache))) {
      return new Response('Downloads need an active Premium subscription', { status: 403 });
    }
    const file = await cache.match(url.pathname);
    if (!file) return new Response('Not downloaded', { status: 404 });
    return rangeResponse(request.headers.get('range'), file);
  },
);
