import type { ModuleContext } from '../../module-context.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import type { SubsonicMethods } from './subsonic-method.ts';

/** stream, download, getCoverArt, getLyricsBySongId. */
export function createMediaMethods(_ctx: ModuleContext, _deps: SubsonicDeps): SubsonicMethods {
  return {};
}
