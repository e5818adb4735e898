// The service worker (src/web/sw.ts, built to /sw.js) is registered after the page has loaded,
// so its precaching of the shell never competes with the first screen's requests.
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .catch((e: unknown) => console.warn('Service worker registration failed', e));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
