import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br and a .gz beside every text file of the build: the server sends them as is
 * (@fastify/static `preCompressed`), so a phone downloads ~¼ of the bytes and the server
 * spends no CPU compressing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'canto:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && /\.(js|css|html|svg|json|txt)$/.test(e.name))
        .map((e) => path.join(e.parentPath, e.name))
        .filter((f) => !f.split(path.sep).includes('.vite'));
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The first screens a visitor can land on, by path, and the page module each one shows. The
 * build writes `first-screens.json` (path → the page's chunk and the chunks it imports that
 * index.html does not load already); the server preloads the requested path's files beside
 * the entry, so a visitor downloads the screen they are going to, not the sign-in page.
 * docs/decisions/0026-first-load.md.
 */
const FIRST_SCREENS: Record<string, string> = {
  '/': 'features/catalogue/home-page.tsx',
  '/auth': 'features/auth/auth-page.tsx',
  // Mailed links land here (password reset, email verification).
  '/reset-password': 'features/auth/reset-password-page.tsx',
  '/verify-email': 'features/auth/verify-email-page.tsx',
  '/browse': 'features/catalogue/browse-page.tsx',
  '/search': 'features/catalogue/search-page.tsx',
  '/podcasts': 'features/podcasts/podcasts-page.tsx',
  '/playlists': 'features/library/playlists-page.tsx',
  '/liked': 'features/library/liked-songs-page.tsx',
  '/recently-played': 'features/listening/recently-played-page.tsx',
  '/premium': 'features/premium/premium-page.tsx',
  '/notifications': 'features/notifications/notifications-page.tsx',
};

/**
 * The pages a link opens without the app (src/web/embed), each with its own tiny script: the
 * embed player, and a shared song's page for a signed-out visitor.
 */
const LINK_PAGES = ['embed', 'song-visitor'];

/**
 * The link pages land at dist/web/<name>.html, where the server reads them: embed.html for
 * /embed/song/{id} and /embed/playlist/{id}, song-visitor.html for a visitor's /song/{id}.
 */
function embedPage(): Plugin {
  let outDir = '';
  return {
    name: 'canto:embed-page',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      for (const name of LINK_PAGES)
        await fs.rename(
          path.join(outDir, 'embed', `${name}.html`),
          path.join(outDir, `${name}.html`),
        );
      await fs.rm(path.join(outDir, 'embed'), { recursive: true, force: true });
    },
  };
}

const isEmbedModule = (id: string | null | undefined) =>
  !!id && /[\\/]src[\\/]web[\\/]embed[\\/]/.test(id);

function firstScreens(screens: Record<string, string>): Plugin {
  return {
    name: 'canto:first-screens',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      // The app's entry, not the embed page's.
      const entry = chunks.find((c) => c.isEntry && !isEmbedModule(c.facadeModuleId));
      if (!entry) throw new Error('firstScreens: no entry chunk');
      // What index.html loads already: the entry and its static imports.
      const initial = new Set<string>();
      const walk = (file: string, into: Set<string>) => {
        if (into.has(file) || initial.has(file)) return;
        into.add(file);
        chunks.find((c) => c.fileName === file)?.imports.forEach((i) => walk(i, into));
      };
      walk(entry.fileName, initial);
      const map: Record<string, string[]> = {};
      for (const [route, page] of Object.entries(screens)) {
        const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/src/web/${page}`));
        if (!chunk) throw new Error(`firstScreens: no chunk for ${page}`);
        const files = new Set<string>();
        walk(chunk.fileName, files);
        map[route] = [...files].map((f) => `/${f}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: 'first-screens.json',
        source: `${JSON.stringify(map, null, 2)}\n`,
      });
    },
  };
}

/**
 * The installable app (docs/decisions/0036-offline-downloads.md): the manifest, and the service
 * worker src/web/sw.ts, into which the build writes the shell's files to precache. main.tsx
 * registers it in production builds; the server sends sw.js uncached.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: '.',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: {
    id: '/',
    name: 'Canto',
    short_name: 'Canto',
    description: 'Stream music and podcasts, discover artists, and share your sound.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    // index.html's theme-color and the dark theme's background (styles.css).
    theme_color: '#0b0a10',
    background_color: '#0b0a10',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: '/icons/icon-maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ],
  },
  injectManifest: {
    // The shell: scripts, styles, fonts, the page and its images; not the .br/.gz twins.
    globPatterns: ['**/*.{js,css,html,svg,png,jpg,woff2}'],
    globIgnores: ['**/*.br', '**/*.gz', 'sw.js', 'icons/**'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
});

// The web app lives in src/web; the build lands in dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), firstScreens(FIRST_SCREENS), embedPage(), pwa, precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // vendor is one chunk on purpose (~600 kB before compression, ~190 kB gzip): one request
    // beside the entry instead of a wave of small ones (docs/decisions/0026-first-load.md).
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./src/web/index.html', import.meta.url)),
        ...Object.fromEntries(
          LINK_PAGES.map((name) => [
            name,
            fileURLToPath(new URL(`./src/web/embed/${name}.html`, import.meta.url)),
          ]),
        ),
      },
      output: {
        // By layer, so the first load is three files (entry, vendor, app core) plus the
        // screen's own chunk, all requested at once: docs/decisions/0026-first-load.md.
        codeSplitting: {
          groups: [
            {
              // Vite's modulepreload polyfill, which it adds to every page: on its own, or the
              // embed page would load the app's entry to get it.
              name: 'preload-polyfill',
              test: /vite[\\/]modulepreload-polyfill/,
              priority: 4,
            },
            {
              // Libraries the first screen needs: they change with upgrades only, so their
              // long-cached chunk survives deploys of the app code. A library only lazy screens
              // use (drag and drop, passkeys) is left to them.
              name: 'vendor',
              test: /[\\/]node_modules[\\/]/,
              tags: ['$initial'],
              priority: 3,
            },
            {
              // What every screen stands on: shell, session, player, lib, the shared components
              // and the features' faces the shell composes, with the contracts and core they read.
              name: 'app',
              // Not the embed page's script: it is its own few KB, without the app.
              test: /[\\/]src[\\/](?!web[\\/]embed[\\/])/,
              tags: ['$initial'],
              priority: 2,
            },
            {
              // What two lazy screens or more share (song grids, playlist dialogs, icons): one
              // chunk beside the screen's own, instead of a wave of small ones. Libraries are
              // left out: drag and drop or passkeys would ride along to every screen.
              name: 'screens',
              // The link pages (src/web/embed) share their few helpers between themselves only.
              test: /[\\/](src[\\/]web[\\/](?!embed[\\/])|node_modules[\\/]lucide-react[\\/])/,
              minShareCount: 2,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      // ws: the live notifications socket is under /api too.
      '/api': { target: 'http://localhost:3000', ws: true },
      '/media': 'http://localhost:3000',
    },
  },
});
