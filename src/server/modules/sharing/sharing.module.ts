import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { LibraryModule } from '../library/library.module.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { sharingRoutes } from './sharing.routes.ts';
import { createSharingService } from './sharing.service.ts';

export type SharingSettings = {
  /** PUBLIC_URL: canonical links, absolute card URLs, the origin oEmbed answers for. */
  publicUrl: string;
};

/**
 * Share links and embeds (docs/decisions/0035): what a song or public playlist shows to
 * anyone, the songs' 30 s previews, oEmbed.
 */
export function createSharingModule(
  _ctx: ModuleContext,
  deps: {
    songs: Pick<SongsModule, 'songsByIds' | 'ownSongAudio'>;
    library: Pick<LibraryModule, 'sharedPlaylist'>;
    media: Pick<MediaModule, 'openingClip' | 'sendStored'>;
    settings: SharingSettings;
  },
): FeatureModule {
  const sharing = createSharingService({
    songs: deps.songs,
    library: deps.library,
    media: deps.media,
    publicUrl: deps.settings.publicUrl,
  });
  const routes = sharingRoutes({ sharing, media: deps.media });
  return {
    name: 'sharing',
    plugin: async (app) => void (await app.register(routes)),
  };
}
