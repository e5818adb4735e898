import { isUuid } from '../../../core/uuid.ts';
import type { ModuleContext } from '../../module-context.ts';
import type { PlaylistListing } from '../library/library.module.ts';
import { viaModule } from './subsonic-app-errors.ts';
import { songChild } from './subsonic-browse.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import {
  required,
  SubsonicCode,
  SubsonicError,
  type SubsonicCaller,
  type SubsonicMethods,
  type SubsonicParams,
} from './subsonic-method.ts';
import { createSubsonicPasswordsRepository } from './subsonic-passwords.repository.ts';
import { createSubsonicPlaylistsRepository } from './subsonic-playlists.repository.ts';

/*
 * Playlists are the library module's, by the web's rules (its face): a private playlist is
 * its owner's alone (error 70 to anyone else, as the web's 404), a public one is anyone's to
 * read and only its owner's to change (error 50, as the web's 403); titles and descriptions
 * are checked by the web forms' rules and refused with their messages (error 0); a song id of
 * no stored song is error 70. A refused call writes nothing. Canto keeps a song once per
 * playlist: createPlaylist keeps each song's first place, updatePlaylist refuses a song that
 * is already there as the add-to-playlist dialog does. A playlist's id is its uuid.
 */

const notFound = () => new SubsonicError(SubsonicCode.notFound, 'Playlist not found');

const iso = (d: Date) => d.toISOString();

/** The OpenSubsonic Playlist (without its entries). */
function playlistEntry(p: PlaylistListing, caller: SubsonicCaller): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: p.id,
    name: p.title,
    owner: p.ownerEmail,
    public: p.isPublic,
    songCount: p.trackCount,
    duration: Math.round(p.durationMs / 1000),
    created: iso(p.createdAt),
    changed: iso(p.changedAt),
    readonly: p.ownerId !== caller.userId,
  };
  if (p.description) entry.comment = p.description;
  // The first track's cover: getCoverArt resolves a song's id.
  if (p.firstSongId) entry.coverArt = p.firstSongId;
  return entry;
}

/** A playlist id parameter: a uuid, or a playlist of nothing (70). */
function playlistIdOf(params: SubsonicParams, name: string): string {
  const id = required(params, name);
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/** `true`/`false` as Subsonic apps send them; anything else is refused. */
function booleanParam(params: SubsonicParams, name: string): boolean | undefined {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new SubsonicError(SubsonicCode.generic, `Invalid ${name}`);
}

/** Repeated whole-number indexes, each checked (the library checks they name a track). */
function indexesOf(params: SubsonicParams, name: string): number[] {
  return params.all(name).map((raw) => {
    if (!/^\d{1,9}$/.test(raw)) throw new SubsonicError(SubsonicCode.generic, `Invalid ${name}`);
    return Number(raw);
  });
}

/** getPlaylists, getPlaylist, createPlaylist, updatePlaylist, deletePlaylist. */
export function createPlaylistMethods(ctx: ModuleContext, deps: SubsonicDeps): SubsonicMethods {
  const { library } = deps;
  const songs = createSubsonicPlaylistsRepository(ctx.database.db);
  const users = createSubsonicPasswordsRepository(ctx.database.db);

  /** The playlist with its entries in play order, as getPlaylist answers it. */
  async function withEntries(caller: SubsonicCaller, id: string) {
    const { playlist, songIds } = await viaModule(library.visiblePlaylist(caller.userId, id));
    const rows = await songs.songsByIds(caller.userId, songIds);
    const entries = rows.map(songChild);
    return {
      playlist: {
        ...playlistEntry(playlist, caller),
        songCount: entries.length,
        duration: entries.reduce((n, e) => n + (e.duration as number), 0),
        entry: entries,
      },
    };
  }

  return {
    async getPlaylists(caller, params) {
      const asked = params.get('username');
      let ownerId: string | undefined;
      if (asked && asked.toLowerCase() !== caller.username.toLowerCase()) {
        if (!caller.roles.includes('admin'))
          throw new SubsonicError(
            SubsonicCode.notAuthorized,
            "Not authorized to see other users' playlists",
          );
        const other = await users.userByEmail(asked);
        if (!other) throw new SubsonicError(SubsonicCode.notFound, 'User not found');
        // Still the web's rule for an admin: another user's private playlists stay theirs.
        ownerId = other.id;
      }
      const rows = await library.visiblePlaylists(caller.userId, ownerId);
      return { playlists: { playlist: rows.map((p) => playlistEntry(p, caller)) } };
    },

    async getPlaylist(caller, params) {
      return withEntries(caller, playlistIdOf(params, 'id'));
    },

    async createPlaylist(caller, params) {
      const songIds = params.all('songId');
      const existing = params.get('playlistId');
      if (existing) {
        const id = playlistIdOf(params, 'playlistId');
        const name = params.get('name');
        await viaModule(library.setPlaylistSongs(caller.userId, id, songIds, name || undefined));
        return withEntries(caller, id);
      }
      const name = required(params, 'name');
      const id = await viaModule(
        library.createPlaylistFromSongs(caller.userId, { title: name }, songIds),
      );
      return withEntries(caller, id);
    },

    async updatePlaylist(caller, params) {
      const id = playlistIdOf(params, 'playlistId');
      const name = params.get('name');
      const comment = params.get('comment');
      const isPublic = booleanParam(params, 'public');
      await viaModule(
        library.editPlaylist(caller.userId, id, {
          ...(name !== undefined && { title: name }),
          ...(comment !== undefined && { description: comment }),
          ...(isPublic !== undefined && { isPublic }),
          removeIndexes: indexesOf(params, 'songIndexToRemove'),
          addSongIds: params.all('songIdToAdd'),
        }),
      );
      return {};
    },

    async deletePlaylist(caller, params) {
      await viaModule(library.deletePlaylist(caller.userId, playlistIdOf(params, 'id')));
      return {};
    },
  };
}
