import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, ErrorCode } from '../../core/errors.ts';
import type { Role } from '../../contracts/auth.contract.ts';
import { requireAal2IfEnrolled } from './require-aal2.ts';

/**
 * Every route declares who may call it (config.access). 'owner' routes are signed-in at the
 * edge and check ownership in their service, where the owned row is known.
 */
export type Access = 'public' | 'signed-in' | 'artist' | 'admin' | 'owner';

/** `aal` and `hasVerifiedFactor` come from the session lookup, not from the token's claims. */
export type Principal = {
  userId: string;
  sessionId: string;
  aal: 'aal1' | 'aal2';
  hasVerifiedFactor: boolean;
};

export type AuthHooks = {
  /** Turns an access token into a principal, or null when invalid, expired or revoked. */
  resolvePrincipal(accessToken: string): Promise<Principal | null>;
  rolesOf(userId: string): Promise<Role[]>;
};

export type RoutePolicy = {
  method: string;
  url: string;
  access: Access | undefined;
  allowAal1: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route with its declared access, for the route-policy test. */
    routePolicies: RoutePolicy[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /** A public route that still wants to know who calls when a token is sent (sign-out). */
    optionalPrincipal?: boolean;
    /**
     * Open to a password-only (aal1) session of a user with a verified factor: only what the
     * MFA challenge itself needs (session, factor list, challenge, verify). Every other
     * non-public route answers such a session 403 insufficient_aal.
     */
    allowAal1?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** Roles, loaded once per request when a policy or handler needs them. */
    roles(): Promise<Role[]>;
  }
}

export const ACCESS_COOKIE = 'canto_access';
export const REFRESH_COOKIE = 'canto_refresh';

export function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies?.[ACCESS_COOKIE] || undefined;
}

/** Routes registered by plugins (static files, API docs) are public by nature. */
function defaultAccess(url: string): Access | undefined {
  if (url.startsWith('/api/docs') || !url.startsWith('/api')) return 'public';
  return undefined;
}

async function enforce(request: FastifyRequest) {
  // Only the not-found handler has no policy (every route is checked at onReady).
  const { access, allowAal1 } = request.routeOptions.config;
  if (!access || access === 'public') return;
  if (!request.principal) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
  // Before roles: it needs no query (the session lookup brought the factor flag along).
  if (!allowAal1) requireAal2IfEnrolled(request.principal);
  if (access === 'artist' && !(await request.roles()).includes('artist')) {
    throw new AppError(ErrorCode.forbidden, 'Artist role required');
  }
  if (access === 'admin' && !(await request.roles()).includes('admin')) {
    throw new AppError(ErrorCode.forbidden, 'Admin role required');
  }
}

export function registerAccessPolicy(app: FastifyInstance, hooks: AuthHooks) {
  const policies: RoutePolicy[] = [];
  app.decorate('routePolicies', policies);

  app.addHook('onRoute', (route) => {
    const config = (route.config ??= {} as never) as { access?: Access; allowAal1?: boolean };
    config.access ??= defaultAccess(route.url);
    const allowAal1 = config.allowAal1 === true;
    for (const method of [route.method].flat())
      policies.push({ method, url: route.url, access: config.access, allowAal1 });
  });

  app.addHook('onReady', async () => {
    const missing = policies.filter((p) => !p.access).map((p) => `${p.method} ${p.url}`);
    if (missing.length) throw new Error(`Routes without an access policy: ${missing.join(', ')}`);
  });

  app.decorateRequest('principal', null);
  app.decorateRequest('roles', async function roles(this: FastifyRequest) {
    return [] as Role[];
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Public routes (media, health, static files) skip token verification and its session
    // lookup: a browser sends its cookies with every image and audio request.
    const wantsPrincipal =
      (config.access && config.access !== 'public') || config.optionalPrincipal;
    const token = wantsPrincipal ? accessTokenOf(request) : undefined;
    request.principal = token ? await hooks.resolvePrincipal(token) : null;
    let cached: Promise<Role[]> | undefined;
    request.roles = () => {
      const p = request.principal;
      if (!p) return Promise.resolve([]);
      return (cached ??= hooks.rolesOf(p.userId));
    };
    // Enforced here, before the body is parsed or validated: a caller without access learns
    // nothing about input rules and costs no parsing.
    await enforce(request);
  });
}

/** The signed-in principal, for handlers behind a non-public policy. */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
  return request.principal;
}
