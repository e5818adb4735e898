import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { mediaRoutes } from './media.routes.ts';

/** Stored files served at /media/<bucket>/<key> (Range, ETag, immutable caching). */
export type MediaModule = FeatureModule;

export function createMediaModule(ctx: ModuleContext): MediaModule {
  return { name: 'media', plugin: mediaRoutes({ storage: ctx.storage }) };
}
