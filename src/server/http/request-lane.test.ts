import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { putLaneInFront, type RequestLane } from './request-lane.ts';

/** A Fastify app answering `fastify` to everything, with `lane` in front, listening. */
async function serve(lane: RequestLane, errors: unknown[] = []) {
  const app = Fastify({ logger: false });
  app.log.error = ((obj: { err?: unknown }) => void errors.push(obj.err)) as never;
  app.get('/*', async () => 'fastify');
  let answered = 0;
  putLaneInFront(app, lane, { answered: () => answered++ });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  apps.push(app);
  return { app, base, answered: () => answered };
}
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const text = async (url: string) => {
  const res = await fetch(url);
  return `${res.status} ${await res.text()}`;
};

describe('putLaneInFront', () => {
  it('lets the lane answer what it takes and Fastify the rest', async () => {
    const { base, answered } = await serve((req, res) => {
      if (req.url === '/sync-no') return false;
      return Promise.resolve(req.url === '/lane').then((mine) => {
        if (mine) res.writeHead(200).end('lane');
        return mine;
      });
    });
    expect(await text(`${base}/lane`)).toBe('200 lane');
    expect(await text(`${base}/sync-no`)).toBe('200 fastify');
    expect(await text(`${base}/async-no`)).toBe('200 fastify');
    expect(answered()).toBe(1);
  });

  it('logs a lane that throws or rejects, and Fastify answers instead', async () => {
    const errors: unknown[] = [];
    const { base } = await serve((req) => {
      if (req.url === '/throw') throw new Error('sync');
      return Promise.reject(new Error('async'));
    }, errors);
    expect(await text(`${base}/throw`)).toBe('200 fastify');
    expect(await text(`${base}/reject`)).toBe('200 fastify');
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync', 'async']);
  });

  it('closes with the app, keep-alive connections included', async () => {
    const { app, base } = await serve(() => false);
    expect(await text(`${base}/x`)).toBe('200 fastify');
    await app.close();
    await expect(fetch(`${base}/x`)).rejects.toThrow();
  });
});
