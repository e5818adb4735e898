import type { ModuleContext } from '../../module-context.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import type { SubsonicMethods } from './subsonic-method.ts';

/** getPodcasts, getNewestPodcasts, getBookmarks, createBookmark, deleteBookmark. */
export function createPodcastMethods(_ctx: ModuleContext, _deps: SubsonicDeps): SubsonicMethods {
  return {};
}
