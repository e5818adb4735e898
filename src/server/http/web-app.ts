import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built SPA; unknown /api paths stay JSON 404s, other paths get index.html, to GET
 * and to HEAD (link checkers and uptime monitors ask HEAD /), which gets the same headers.
 */
export function registerWebApp(app: FastifyInstance, webDir: string) {
  const hasBuild = fs.existsSync(path.join(webDir, 'index.html'));
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
        } else if (/index\.html(\.br|\.gz)?$/.test(filePath)) {
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const page = request.method === 'GET' || request.method === 'HEAD';
    if (url.startsWith('/api') || url.startsWith('/media') || !page) {
      return reply.status(404).send({
        error: {
          code: 'not_found',
          message: `No route for ${request.method} ${url.split('?')[0]}`,
        },
      });
    }
    if (!hasBuild) {
      return reply
        .type('text/plain')
        .status(503)
        .send('The web app is not built. Run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
