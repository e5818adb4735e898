/**
 * Route files register API operations from the route table (eslint.config.js, `routesFromTable`;
 * docs/decisions/0025). These cases lint a made-up route file and expect the rule to fire on a
 * route registered by hand, and stay quiet on one registered from its entry.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function registrationErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const plugin = (body: string) =>
  `export const routes = async (app, scope, service) => {\n${body}\n};\n`;

const cases: { file: string; code: string; allowed: boolean; because: string }[] = [
  {
    file: 'src/server/modules/library/likes.routes.ts',
    code: plugin(
      "app.get('/me/liked-songs', { config: { access: 'signed-in' } }, async () => []);",
    ),
    allowed: false,
    because: 'a route registered by hand, its schemas beside it',
  },
  {
    file: 'src/server/modules/library/likes.routes.ts',
    code: plugin("app.route({ method: 'GET', url: '/me/liked-songs', handler: async () => [] });"),
    allowed: false,
    because: 'the long form of the same',
  },
  {
    file: 'src/server/modules/social/profiles.routes.ts',
    code: plugin("scope.put('/me/profile/avatar', {}, async () => ({}));"),
    allowed: false,
    because: 'a route registered by hand in a nested scope',
  },
  {
    file: 'src/server/modules/songs/songs.routes.ts',
    code: plugin("app.post('/songs', { config: { access: 'artist' } }, async () => ({}));"),
    allowed: false,
    because: 'an upload route registered by hand (multipart routes have entries too)',
  },
  {
    file: 'src/server/modules/system/system.module.ts',
    code: plugin("app.get('/api/health', {}, async () => ({ status: 'ok' }));"),
    allowed: false,
    because: 'a module file registering a route by hand',
  },
  {
    file: 'src/server/modules/library/likes.routes.ts',
    code: plugin('contractRoute(app, libraryApi.likedSongs, { config: {}, schema: {}, handler });'),
    allowed: true,
    because: 'a route registered from its table entry',
  },
  {
    file: 'src/server/modules/library/playlists.routes.ts',
    code: plugin('return service.get(userId, id);'),
    allowed: true,
    because: "a service's get() is no route",
  },
  {
    file: 'src/server/modules/media/media.routes.ts',
    code: plugin("app.route({ method: ['GET', 'HEAD'], url: '/media/:bucket/:key', handler });"),
    allowed: true,
    because: '/media is outside the table (signed files, not the API)',
  },
];

describe('route registration rule', () => {
  it.each(cases)('$file: $because', async ({ file, code, allowed }) => {
    const errors = await registrationErrors(file, code);
    if (allowed) expect(errors).toEqual([]);
    else expect(errors).toEqual([expect.stringContaining('contractRoute')]);
  });
});
