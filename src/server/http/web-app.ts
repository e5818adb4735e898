import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { authApi } from '../../contracts/api/auth.api.ts';
import { premiumApi } from '../../contracts/api/premium.api.ts';
import { songsApi } from '../../contracts/api/songs.api.ts';
import { needsStepUp } from '../../core/auth/aal.ts';

/**
 * The first query of a screen, by path, that the server asks the browser to start beside the
 * scripts for a visitor who looks signed in. Each must be exactly the URL the screen fetches.
 */
const FIRST_QUERIES: Record<string, readonly string[]> = {
  '/': [songsApi.home.path],
};

/** Path → the screen's script files the build wrote (vite.config.ts, first-screens.json). */
type FirstScreens = Record<string, readonly string[]>;

function readFirstScreens(webDir: string): FirstScreens {
  try {
    return JSON.parse(
      fs.readFileSync(path.join(webDir, 'first-screens.json'), 'utf8'),
    ) as FirstScreens;
  } catch {
    return {};
  }
}

/**
 * Crawlers may read the podcast feeds and their enclosures (directories index them), not the
 * rest of the API or the signed media; the app's pages are behind sign-in anyway.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Allow: /api/podcasts/',
  'Allow: /api/episodes/',
  'Disallow: /api/',
  'Disallow: /media/',
  '',
].join('\n');

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The hints for one page request: the screen's chunks, and the requests every screen waits for
 * (the session; for a signed-in visitor who owes no second factor, the subscription and the
 * screen's first query), so they travel beside the scripts instead of after them. The fetch hints carry the
 * cookies as the web app's own calls do (credentials include), so those calls find them.
 * docs/decisions/0026-first-load.md.
 */
export function firstLoadHints(
  pathname: string,
  signedIn: boolean,
  screens: FirstScreens,
): string[] {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const scripts = (screens[route] ?? []).map(
    (href) => `<link rel="modulepreload" crossorigin href="${escapeAttr(href)}">`,
  );
  const data = [
    authApi.session.path,
    ...(signedIn ? [premiumApi.subscription.path, ...(FIRST_QUERIES[route] ?? [])] : []),
  ].map(
    (href) =>
      `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escapeAttr(href)}">`,
  );
  return [...data, ...scripts];
}

/**
 * Serves the built SPA; unknown /api paths stay JSON 404s, other paths get index.html, to GET
 * and to HEAD (link checkers and uptime monitors ask HEAD /), which gets the same headers.
 */
export function registerWebApp(app: FastifyInstance, webDir: string) {
  const hasBuild = fs.existsSync(path.join(webDir, 'index.html'));
  const screens = hasBuild ? readFirstScreens(webDir) : {};
  if (hasBuild) {
    app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text file (vite.config.ts): sent as is, no CPU.
      preCompressed: true,
      maxAge: '1h',
      setHeaders(reply, filePath) {
        // Hashed assets never change; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (/(index\.html|sw\.js|manifest\.webmanifest)(\.br|\.gz)?$/.test(filePath)) {
          // The service worker and the manifest are checked on every load, so a deploy's
          // shell reaches installed apps at their next start (docs/decisions/0036).
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }

  async function page(request: FastifyRequest): Promise<string> {
    const html = await fs.promises.readFile(path.join(webDir, 'index.html'), 'utf8');
    const at = html.indexOf('</head>');
    if (at < 0) return html;
    const pathname = request.url.split('?')[0]!;
    const viewer = request.principal;
    const signedIn = viewer !== null && !needsStepUp(viewer.aal, viewer.hasVerifiedFactor);
    const hints = firstLoadHints(pathname, signedIn, screens);
    return `${html.slice(0, at)}${hints.join('')}${html.slice(at)}`;
  }

  // The access policy resolves the caller for this handler too (optionalPrincipal): a page's
  // hints depend on who asks, and a session that owes its second factor gets none of the
  // screens' data (it would answer 403). Fastify reads `config` here as on a route.
  const notFound = {
    config: { access: 'public', optionalPrincipal: true, allowAal1: true },
  } as const;
  app.setNotFoundHandler(notFound as object, async (request, reply) => {
    const url = request.url;
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (url.startsWith('/api') || url.startsWith('/media') || !isPage) {
      return reply.status(404).send({
        error: {
          code: 'not_found',
          message: `No route for ${request.method} ${url.split('?')[0]}`,
        },
      });
    }
    // A text file crawlers read, never the app's HTML (with or without a build).
    if (url.split('?')[0] === '/robots.txt') {
      return reply
        .header('cache-control', 'public, max-age=86400')
        .type('text/plain; charset=utf-8')
        .send(ROBOTS_TXT);
    }
    if (!hasBuild) {
      return reply
        .type('text/plain')
        .status(503)
        .send('The web app is not built. Run `npm run build`.');
    }
    // The hints depend on the cookie: a shared cache must not hand one visitor's to another.
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(await page(request));
  });
}
