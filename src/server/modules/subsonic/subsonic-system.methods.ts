import type { SubsonicPasswordsRepository } from './subsonic-passwords.repository.ts';
import {
  SubsonicCode,
  SubsonicError,
  type SubsonicCaller,
  type SubsonicMethods,
} from './subsonic-method.ts';

/** What getOpenSubsonicExtensions announces: the extensions this server speaks. */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'songLyrics', versions: [1] },
  { name: 'indexBasedQueue', versions: [1] },
];

/** The one music folder: Canto has a single catalogue. */
export const MUSIC_FOLDER = { id: 1, name: 'Music' };

// Roles a listener has in Subsonic's terms; admin adds adminRole (and settingsRole).
function userOf(username: string, roles: readonly string[]) {
  const admin = roles.includes('admin');
  return {
    username,
    email: username,
    scrobblingEnabled: true,
    adminRole: admin,
    settingsRole: admin,
    downloadRole: true,
    uploadRole: false,
    playlistRole: true,
    coverArtRole: true,
    commentRole: false,
    podcastRole: true,
    streamRole: true,
    jukeboxRole: false,
    shareRole: false,
    videoConversionRole: false,
    folder: [MUSIC_FOLDER.id],
  };
}

/** ping, getLicense, getMusicFolders, getUser, getScanStatus, startScan (auth required). */
export function createSystemMethods(deps: {
  repo: Pick<SubsonicPasswordsRepository, 'userByEmail' | 'songCount'>;
  rolesOf(userId: string): Promise<readonly string[]>;
}): SubsonicMethods {
  const scanStatus = async () => ({
    scanStatus: { scanning: false, count: await deps.repo.songCount() },
  });
  return {
    ping: async () => ({}),
    getLicense: async () => ({ license: { valid: true } }),
    getMusicFolders: async () => ({ musicFolders: { musicFolder: [MUSIC_FOLDER] } }),
    getUser: async (caller: SubsonicCaller, params) => {
      const asked = params.get('username') ?? caller.username;
      if (asked.toLowerCase() === caller.username.toLowerCase())
        return { user: userOf(caller.username, caller.roles) };
      if (!caller.roles.includes('admin'))
        throw new SubsonicError(SubsonicCode.notAuthorized, 'Not authorized to see other users');
      const other = await deps.repo.userByEmail(asked);
      if (!other) throw new SubsonicError(SubsonicCode.notFound, 'User not found');
      return { user: userOf(other.email, await deps.rolesOf(other.id)) };
    },
    // Canto's catalogue is indexed as songs are uploaded: there is never a scan to run.
    getScanStatus: scanStatus,
    startScan: scanStatus,
  };
}
