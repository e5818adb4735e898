import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { AuthModule } from '../auth/auth.module.ts';
import { createMfaRepository } from './mfa.repository.ts';
import { mfaRoutes } from './mfa.routes.ts';
import { createMfaService } from './mfa.service.ts';

/** Multi-factor sign-in (spec §7 Auth): TOTP and passkeys, mounted at /api/auth. */
export type MfaSettings = {
  /** PUBLIC_URL: the passkeys' relying party (its host name and origin). */
  publicUrl: string;
};

export function createMfaModule(
  ctx: ModuleContext,
  deps: {
    auth: Pick<AuthModule, 'elevate' | 'setSessionCookies' | 'factorsChanged'>;
    settings: MfaSettings;
  },
): FeatureModule {
  const mfa = createMfaService({
    repo: createMfaRepository(ctx.database.db),
    limiter: ctx.rateLimiter,
    clock: ctx.clock,
    publicUrl: deps.settings.publicUrl,
    secretKey: ctx.secretKey,
    log: ctx.log,
  });
  const routes = mfaRoutes({ mfa, auth: deps.auth });
  return {
    name: 'mfa',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api/auth' })),
  };
}
