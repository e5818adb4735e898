import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { authApi } from '../../contracts/api/auth.api.ts';
import { premiumApi } from '../../contracts/api/premium.api.ts';
import { songsApi } from '../../contracts/api/songs.api.ts';
import { needsStepUp } from '../../core/auth/aal.ts';
import type { Principal } from './access-policy.ts';

/**
 * What a page's <head> gains for its path (a shared item's title and link-card tags), from
 * the feature that knows the item, and the status to answer with (404 for an item that is
 * not there or not shown, while the app still renders its not-found screen). Null: a path
 * the hook knows nothing of, served as is.
 */
export type PageHead = (
  pathname: string,
  viewer: Principal | null,
) => Promise<{ status: number; head: string } | null>;

/**
 * The first query of a screen, by path, that the server asks the browser to start beside the
 * scripts for a visitor who looks signed in. Each must be exactly the URL the screen fetches.
 */
const FIRST_QUERIES: Record<string, readonly string[]> = {
  '/': [songsApi.home.path],
};

/** What a signed-out visitor of /song/{id} gets instead of the app (vite.config.ts LINK_PAGES). */
const VISITOR_SONG_PAGE = 'song-visitor.html';

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
 * Crawlers may read the podcast feeds and their enclosures (directories index them), the
 * shared items' pages, embeds, previews and oEmbed answers and the public images their link
 * cards show; not the rest of the API or the signed media.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Allow: /api/podcasts/',
  'Allow: /api/episodes/',
  'Allow: /api/share/',
  'Allow: /api/oembed',
  'Allow: /song/',
  'Allow: /playlist/',
  'Allow: /embed/',
  'Allow: /media/cover-art/',
  'Allow: /media/avatars/',
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
export function registerWebApp(
  app: FastifyInstance,
  webDir: string,
  { pageHead }: { pageHead?: PageHead } = {},
) {
  const hasBuild = fs.existsSync(path.join(webDir, 'index.html'));
  const screens = hasBuild ? readFirstScreens(webDir) : {};
  const hasVisitorSongPage = fs.existsSync(path.join(webDir, VISITOR_SONG_PAGE));
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

  async function page(request: FastifyRequest): Promise<{ status: number; html: string }> {
    const pathname = request.url.split('?')[0]!;
    const viewer = request.principal;
    const signedIn = viewer !== null && !needsStepUp(viewer.aal, viewer.hasVerifiedFactor);
    // A visitor's shared song is a small page of its own, not the whole app (ADR 0035).
    const visitorSong = !signedIn && hasVisitorSongPage && /^\/song\/[^/]+\/?$/.test(pathname);
    let html = await fs.promises.readFile(
      path.join(webDir, visitorSong ? VISITOR_SONG_PAGE : 'index.html'),
      'utf8',
    );
    let status = 200;
    let extra = '';
    const found = await pageHead?.(pathname, viewer).catch((error: unknown) => {
      // The page without its item's tags is still the app: the screen says what went wrong.
      request.log.error({ err: error }, 'could not make the page head');
      return null;
    });
    if (found) {
      status = found.status;
      extra = found.head;
      // The hook's title and description stand instead of the app's own.
      if (/<title[\s>]/.test(extra)) html = html.replace(/<title>[\s\S]*?<\/title>/, '');
      if (/<meta name="description"/.test(extra))
        html = html.replace(/<meta\s+name="description"[^>]*>/, '');
    }
    const at = html.indexOf('</head>');
    if (at < 0) return { status, html };
    const hints = visitorSong ? [] : firstLoadHints(pathname, signedIn, screens);
    return { status, html: `${html.slice(0, at)}${extra}${hints.join('')}${html.slice(at)}` };
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
    const { status, html } = await page(request);
    return reply
      .status(status)
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
