import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';

describe.each(dbKinds)('system routes on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('answers health with status ok', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
    expect(doc.paths['/api/admin/artist-requests']).toBeDefined();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('gives every registered route an access policy', () => {
    const allowed = ['public', 'signed-in', 'artist', 'admin', 'owner'];
    expect(ctx.app.routePolicies.length).toBeGreaterThan(3);
    const without = ctx.app.routePolicies.filter((r) => !allowed.includes(r.access as string));
    expect(without).toEqual([]);
  });

  it('refuses every non-public API route to an anonymous caller, before touching input', async () => {
    const guarded = ctx.app.routePolicies.filter(
      (r) => r.access !== 'public' && r.url.startsWith('/api') && r.method !== 'HEAD',
    );
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await ctx.app.inject({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });
});
