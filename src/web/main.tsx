import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { loadAppShell } from './shell/lazy-app-shell.tsx';
import './styles.css';

// Fetch the first screen's code alongside the session probe rather than after the router
// and the guards have rendered (the lazy() calls in app.tsx then find it loaded).
if (location.pathname === '/auth') void import('./features/auth/auth-page.tsx');
else void loadAppShell();

const root = document.getElementById('root');
if (!root) throw new Error('Canto: #root element missing from index.html');
// A transition: React renders the first screen in short slices and yields to the browser in
// between, instead of one long task that blocks input while the page boots.
startTransition(() => createRoot(root).render(<App />));
