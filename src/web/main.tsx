import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './app.tsx';
import { registerServiceWorker } from './lib/offline/register-service-worker.ts';
import { startBootQueries } from './session/boot-queries.ts';
import { queryClient } from './session/query-client.ts';
import './styles.css';

// Before the first render: the guards then find the session on its way (or answered), the
// subscription follows it at once rather than after the shell has rendered, and the screen's
// module (preloaded by the server's hints) is in when the guards let it render.
startBootQueries(queryClient);
preloadScreen(location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('Canto: #root element missing from index.html');
// A transition: React renders the first screen in short slices and yields to the browser in
// between, instead of one long task that blocks input while the page boots.
startTransition(() => createRoot(root).render(<App />));

// Installable, and the shell opens offline (production builds: the dev server has no worker).
if (import.meta.env.PROD) registerServiceWorker();
