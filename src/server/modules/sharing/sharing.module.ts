import type { PageHead } from '../../http/web-app.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { LibraryModule } from '../library/library.module.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import type { SocialModule } from '../social/social.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { embedPagesRoutes } from './embed-pages.routes.ts';
import { createSharePages } from './share-pages.service.ts';
import { sharingRoutes, viewerOf } from './sharing.routes.ts';
import { createSharingService } from './sharing.service.ts';

export type SharingSettings = {
  /** PUBLIC_URL: canonical links, absolute card URLs, the origin oEmbed answers for. */
  publicUrl: string;
  /** The built web app (dist/web): the embed pages are its embed.html. */
  webDir: string;
};

/** Share links and embeds; the web app asks it for the link-card tags of a page. */
export type SharingModule = FeatureModule & {
  /** Title and card tags of the web app's page for a shared item's path (registerWebApp). */
  pageHead: PageHead;
};

/**
 * Share links and embeds (docs/decisions/0035): what a song or public playlist shows to
 * anyone, the songs' 30 s previews, oEmbed, the embed pages and the link cards of the pages
 * of songs, playlists, profiles, shows and episodes.
 */
export function createSharingModule(
  _ctx: ModuleContext,
  deps: {
    songs: Pick<SongsModule, 'songsByIds' | 'ownSongAudio'>;
    library: Pick<LibraryModule, 'sharedPlaylist'>;
    media: Pick<MediaModule, 'openingClip' | 'sendStored' | 'scaledCover' | 'imageSize'>;
    social: Pick<SocialModule, 'profileCard'>;
    podcasts: Pick<PodcastsModule, 'showById' | 'readyEpisode'>;
    settings: SharingSettings;
  },
): SharingModule {
  const { publicUrl, webDir } = deps.settings;
  const sharing = createSharingService({
    songs: deps.songs,
    library: deps.library,
    media: deps.media,
    publicUrl,
  });
  const pages = createSharePages({
    sharing,
    social: deps.social,
    podcasts: deps.podcasts,
    publicUrl,
    webDir,
  });
  const routes = sharingRoutes({ sharing, media: deps.media });
  return {
    name: 'sharing',
    pageHead: (pathname, principal) => pages.pageHead(pathname, viewerOf(principal)),
    plugin: async (app) => {
      await app.register(routes);
      await app.register(embedPagesRoutes({ pages }));
    },
  };
}
