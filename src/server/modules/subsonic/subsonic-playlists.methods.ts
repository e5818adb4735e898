import type { ModuleContext } from '../../module-context.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import type { SubsonicMethods } from './subsonic-method.ts';

/** getPlaylists, getPlaylist, createPlaylist, updatePlaylist, deletePlaylist. */
export function createPlaylistMethods(_ctx: ModuleContext, _deps: SubsonicDeps): SubsonicMethods {
  return {};
}
