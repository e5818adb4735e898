import type { ModuleContext } from '../../module-context.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import type { SubsonicMethods } from './subsonic-method.ts';

/** star, unstar, getStarred2, scrobble, getNowPlaying, getPlayQueue, savePlayQueue. */
export function createUserStateMethods(_ctx: ModuleContext, _deps: SubsonicDeps): SubsonicMethods {
  return {};
}
