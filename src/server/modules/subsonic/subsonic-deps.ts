import type { LibraryModule } from '../library/library.module.ts';
import type { ListeningModule } from '../listening/listening.module.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import type { SocialModule } from '../social/social.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';

/**
 * What the Subsonic module is given: the feature modules whose records its methods serve,
 * reached through their public faces only. Each endpoint file takes what it needs of it.
 */
export type SubsonicDeps = {
  roles: Pick<RolesModule, 'rolesOf'>;
  songs: SongsModule;
  media: MediaModule;
  library: LibraryModule;
  listening: ListeningModule;
  podcasts: PodcastsModule;
  social: SocialModule;
  settings: { serverVersion: string };
};
