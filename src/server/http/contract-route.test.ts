import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type FastifyPluginAsyncZod,
} from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../contracts/api/define-route.ts';
import { contractRoute, pathUnder } from './contract-route.ts';

const rename = defineRoute({
  method: 'PATCH',
  path: '/api/things/:id',
  params: z.object({ id: z.string().regex(/^\d+$/) }),
  query: z.object({ dry: z.enum(['true', 'false']).optional() }),
  body: z.object({ name: z.string().min(1) }),
  status: 201,
  response: z.object({ id: z.string(), name: z.string() }),
});

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(plugin: FastifyPluginAsyncZod, prefix: string) {
  const app = Fastify();
  apps.push(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(plugin, { prefix });
  await app.ready();
  return app;
}

describe('contractRoute', () => {
  const plugin: FastifyPluginAsyncZod = async (app) => {
    contractRoute(app, rename, {
      config: { access: 'signed-in' },
      schema: { summary: 'Rename a thing' },
      handler: async (request, reply) =>
        reply.status(201).send({
          id: request.params.id,
          name: `${request.body.name}${request.query.dry === 'true' ? ' (dry)' : ''}`,
          // Not in the response schema: serialization drops it.
          secret: 'x',
        } as { id: string; name: string }),
    });
  };

  it("registers the entry's method at its whole path, under the plugin's prefix", async () => {
    const app = await appWith(plugin, '/api');
    expect(app.hasRoute({ method: 'PATCH', url: '/api/things/:id' })).toBe(true);
    expect(app.hasRoute({ method: 'PATCH', url: '/api/api/things/:id' })).toBe(false);
  });

  it("validates with the entry's params, query and body schemas", async () => {
    const app = await appWith(plugin, '/api');
    const send = (url: string, payload: unknown) =>
      app.inject({ method: 'PATCH', url, payload: payload as object });
    expect((await send('/api/things/x', { name: 'a' })).statusCode).toBe(400);
    expect((await send('/api/things/1?dry=maybe', { name: 'a' })).statusCode).toBe(400);
    expect((await send('/api/things/1', { name: '' })).statusCode).toBe(400);
    const ok = await send('/api/things/1?dry=true', { name: 'a' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ id: '1', name: 'a (dry)' });
  });

  it('stops the app when the entry is not under the plugin prefix', async () => {
    await expect(appWith(plugin, '/api/auth')).rejects.toThrow(
      'The route /api/things/:id is registered in a plugin under /api/auth',
    );
  });
});

describe('pathUnder', () => {
  it('is the path relative to the prefix, on segment boundaries only', () => {
    expect(pathUnder({ prefix: '/api' }, '/api/health')).toBe('/health');
    expect(pathUnder({ prefix: '' }, '/.well-known/jwks.json')).toBe('/.well-known/jwks.json');
    expect(() => pathUnder({ prefix: '/api' }, '/apiary/x')).toThrow('under /api');
  });
});
