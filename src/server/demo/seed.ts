import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthModule } from '../modules/auth/auth.module.ts';
import type { RolesModule } from '../modules/roles/roles.module.ts';
import type { ProfileRecords } from '../modules/social/social.module.ts';
import type { DemoContent, DemoRepository } from './demo.repository.ts';
import type { Db as Tx } from '../db/client.ts';
import type { Role } from '../../contracts/auth.contract.ts';
import { feedUrlOf, podcastGuidOf } from '../modules/podcasts/podcasts.module.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../storage/storage.ts';
import { renderAvatar, renderCover } from './covers.ts';
import { FLAVOURS, seededRandom, synthesizeWav, type Genre } from './synth.ts';

/*
 * Demo content (DEMO, on by default for the embedded database): accounts, a small catalogue
 * with generated audio and covers, and enough listening, likes and follows that no list
 * starts empty.
 *
 * Media goes through the Storage interface (local `${DATA_DIR}/media/<bucket>/<key>` by
 * default, S3 with STORAGE=s3) under server-made keys; rows store the public URL
 * `/media/<bucket>/<key>` (served by modules/media/media.routes.ts) and the key in `*_key`.
 */

export const DEMO_PASSWORD = 'canto-demo';
export const DEMO_ADMIN_EMAIL = 'admin@canto.local';

export type Accounts = AuthModule['accounts'];

export type DemoDeps = {
  accounts: Accounts;
  roles: RolesModule;
  profiles: Pick<ProfileRecords, 'setBio' | 'setAvatar'>;
  repo: DemoRepository;
  storage: Storage;
  now: () => Date;
  /** False when ADMIN_EMAIL names the real admin: then no demo admin is made. */
  withAdmin: boolean;
  /** Seconds of audio per song; tests pass a few to stay fast. */
  songSeconds?: (index: number) => number;
  /**
   * Enqueues a song's media job in the transaction that writes it (the songs module's):
   * demo songs go through the same pipeline as uploads, in the background once the server
   * runs (docs/decisions/0014). Without it they keep their originals only.
   */
  enqueueMedia?: (songId: string, tx: Tx) => Promise<unknown>;
  /** The same for an episode (the podcasts module's job), with the rows that write it. */
  enqueueEpisodeMedia?: (episodeId: string, tx: Tx) => Promise<unknown>;
  /** PUBLIC_URL: the demo show's podcast:guid is made from its feed URL, as for any show. */
  publicUrl?: string;
};

export type DemoAccount = {
  email: string;
  displayName: string;
  role: Role | 'listener';
  userId: string;
};
export type DemoResult = { accounts: DemoAccount[]; songs: number; episodes: number };

type AccountSpec = {
  key: string;
  email: string;
  displayName: string;
  role: Role | 'listener';
  bio?: string;
};

const ACCOUNTS: AccountSpec[] = [
  { key: 'admin', email: DEMO_ADMIN_EMAIL, displayName: 'Canto Admin', role: 'admin' },
  {
    key: 'nova',
    email: 'nova@canto.local',
    displayName: 'Nova Lumen',
    role: 'artist',
    bio: 'Synth-pop and late-night beats from a small flat with a big window.',
  },
  {
    key: 'owls',
    email: 'owls@canto.local',
    displayName: 'The Night Owls',
    role: 'artist',
    bio: 'A four-piece that plays after midnight: rock, jazz and whatever the room asks for.',
  },
  {
    key: 'river',
    email: 'river@canto.local',
    displayName: 'River Stone',
    role: 'pending_artist',
    bio: 'Folk songs recorded on a porch, waiting for the first release on Canto.',
  },
  {
    key: 'ana',
    email: 'ana@canto.local',
    displayName: 'Ana Ruiz',
    role: 'listener',
    bio: 'Runs on coffee and synths.',
  },
  { key: 'ben', email: 'ben@canto.local', displayName: 'Ben Okafor', role: 'listener' },
  { key: 'cleo', email: 'cleo@canto.local', displayName: 'Cleo Martin', role: 'listener' },
];

/**
 * Newest first. The play counts are not in that order, so Popular differs from Recent (Home)
 * and Trending from New Releases (Browse): the most played are older songs, and a gap of
 * over 100 plays between neighbours keeps the order whatever the seeded plays add.
 */
const SONGS: { artist: 'nova' | 'owls'; title: string; genre: Genre; plays: number }[] = [
  { artist: 'nova', title: 'Neon Afternoon', genre: 'Pop', plays: 433 },
  { artist: 'owls', title: 'Midnight Engine', genre: 'Rock', plays: 1210 },
  { artist: 'nova', title: 'Glass Horizon', genre: 'Electronic', plays: 120 },
  { artist: 'owls', title: 'Blue Corner Table', genre: 'Jazz', plays: 764 },
  { artist: 'nova', title: 'Paper Crowns', genre: 'Hip Hop', plays: 321 },
  { artist: 'owls', title: 'Morning Canon', genre: 'Classical', plays: 198 },
  { artist: 'nova', title: 'Velvet Static', genre: 'R&B', plays: 1843 },
  { artist: 'owls', title: 'Dust Road Home', genre: 'Country', plays: 540 },
  { artist: 'nova', title: 'Pulse of the City', genre: 'Electronic', plays: 260 },
  { artist: 'owls', title: 'Wires and Thunder', genre: 'Rock', plays: 987 },
  { artist: 'nova', title: 'Satellite Heart', genre: 'Pop', plays: 75 },
  { artist: 'owls', title: 'Late Set Waltz', genre: 'Jazz', plays: 652 },
];

/** Whose profile gets a generated avatar: every artist, approved or waiting. */
const WITH_AVATAR = ['nova', 'owls', 'river'] as const;

/**
 * One active ad, so a free listener's Home shows the card at once (docs/decisions/0023). No
 * audio: the music a visitor starts is not paused by a jingle on their first look around.
 */
const DEMO_AD = {
  title: 'Canto Premium',
  description: 'No ads, unlimited skips and the AI music companion: $9.99 a month.',
  durationMs: 15_000,
};

const EPISODES = [
  { title: 'How a Song Starts', description: 'From a hummed line on the bus to a first demo.' },
  {
    title: 'Drums on a Budget',
    description: 'Noise, a sine wave and patience: building a kit from nothing.',
  },
  {
    title: 'Mixing for Small Speakers',
    description: 'Why your mix should sound good on a phone first.',
  },
];

/** Every email the demo may create: a database holding only these has no one else's data. */
export const DEMO_EMAILS: readonly string[] = ACCOUNTS.map((a) => a.email);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export async function seedDemo(deps: DemoDeps): Promise<DemoResult> {
  const { storage } = deps;
  const now = deps.now().getTime();
  const random = seededRandom('canto-demo');
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const written: { bucket: Bucket; key: string }[] = [];

  /** Stores bytes under a fresh key and returns the row fields for it. */
  const store = async (bucket: Bucket, ext: keyof typeof MEDIA_TYPES, bytes: Buffer | string) => {
    const key = newKey(ext);
    const body = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    await storage.put(bucket, key, Readable.from([body]), {
      contentType: MEDIA_TYPES[ext],
      maxBytes: body.length,
    });
    written.push({ bucket, key });
    return { url: `/media/${bucket}/${key}`, key };
  };

  // Accounts go through the auth module (hashing, sign-up rules), roles through roles, bios
  // through social: the demo writes no row another module owns (docs/decisions/0024). Their
  // password hashes (argon2, ~70 ms each) run on libuv's threads, so the media is rendered on
  // this one meanwhile (renderMedia) instead of after them.
  const made: DemoAccount[] = [];
  const id: Record<string, string> = {};
  const makeAccounts = async () => {
    for (const spec of ACCOUNTS) {
      if (spec.role === 'admin' && !deps.withAdmin) continue;
      // An earlier start that failed half way may have made this account: resume with it.
      const { userId } =
        (await deps.accounts.findByEmail(spec.email)) ??
        (await deps.accounts.create({
          email: spec.email,
          password: DEMO_PASSWORD,
          displayName: spec.displayName,
          isArtist: spec.role === 'pending_artist',
        }));
      // Approved artists and the admin get their role directly; grant is idempotent.
      if (spec.role !== 'listener') await deps.roles.grant(userId, spec.role);
      if (spec.bio) await deps.profiles.setBio(userId, spec.bio);
      id[spec.key] = userId;
      made.push({ email: spec.email, displayName: spec.displayName, role: spec.role, userId });
    }
  };
  const nameOf = (key: string) => ACCOUNTS.find((a) => a.key === key)!.displayName;

  // Generated audio and covers, in the order (and so with the random draws) of the lists.
  const renderMedia = async () => {
    const songs = [];
    for (const [i, s] of SONGS.entries()) {
      const seconds = deps.songSeconds?.(i) ?? 24 + Math.floor(random() * 9);
      const { wav, durationMs } = synthesizeWav({
        seed: `${s.title}`,
        flavour: FLAVOURS[s.genre],
        seconds,
      });
      const file = await store('music', 'wav', wav);
      const cover = await store(
        'cover-art',
        'svg',
        renderCover({ seed: s.title, title: s.title, subtitle: nameOf(s.artist) }),
      );
      songs.push({ file, cover, durationMs });
    }
    const showCover = await store(
      'cover-art',
      'svg',
      renderCover({ seed: 'after-hours', title: 'After Hours Radio', subtitle: nameOf('owls') }),
    );
    const episodes = [];
    for (const [i, e] of EPISODES.entries()) {
      const { wav, durationMs } = synthesizeWav({
        seed: e.title,
        flavour: FLAVOURS.Podcast,
        seconds: deps.songSeconds?.(i) ?? 30,
      });
      episodes.push({ audio: await store('podcasts', 'wav', wav), bytes: wav.length, durationMs });
    }
    const avatars: Record<string, { url: string }> = {};
    for (const key of WITH_AVATAR)
      avatars[key] = await store('avatars', 'svg', renderAvatar({ seed: key, name: nameOf(key) }));
    const adImage = await store(
      'cover-art',
      'svg',
      renderCover({ seed: 'demo-ad', title: DEMO_AD.title, subtitle: 'Listen without breaks' }),
    );
    return { songs, showCover, episodes, avatars, adImage };
  };

  const accountsMade = makeAccounts();
  // No orphan files: when the rows do not land, neither does their media.
  const removeWritten = () =>
    Promise.all(written.map((w) => storage.delete(w.bucket, w.key).catch(() => {})));
  let media: Awaited<ReturnType<typeof renderMedia>>;
  try {
    media = await renderMedia();
  } catch (error) {
    // The accounts finish either way, as they did when they were made first: a later start
    // resumes with them.
    await accountsMade.catch(() => {});
    await removeWritten();
    throw error;
  }
  try {
    await accountsMade;
  } catch (error) {
    await removeWritten();
    throw error;
  }
  const listeners = ['ana', 'ben', 'cleo'].map((k) => id[k]!);

  try {
    const content: DemoContent = {
      songs: [],
      podcasts: [],
      episodes: [],
      follows: [],
      likes: [],
      playlists: [],
      playlistTracks: [],
      streams: [],
      notifications: [],
      ads: [
        {
          title: DEMO_AD.title,
          description: DEMO_AD.description,
          imageUrl: media.adImage.url,
          imageKey: `cover-art/${media.adImage.key}`,
          durationMs: DEMO_AD.durationMs,
          targetUrl: deps.publicUrl ? `${deps.publicUrl}/premium` : null,
          active: true,
          createdAt: new Date(now - 3 * DAY),
        },
      ],
    };

    // Songs, newest first in list order, half a day apart over the last week.
    for (const [i, s] of SONGS.entries()) {
      const { file, cover, durationMs } = media.songs[i]!;
      content.songs.push({
        id: crypto.randomUUID(),
        artistId: id[s.artist]!,
        artist: nameOf(s.artist),
        title: s.title,
        genre: s.genre,
        fileUrl: file.url,
        fileKey: file.key,
        coverArtUrl: cover.url,
        coverArtKey: cover.key,
        durationMs,
        // Playable from the original at once; renditions follow in the background.
        mediaStatus: deps.enqueueMedia ? 'processing' : 'ready',
        playCount: s.plays,
        createdAt: new Date(now - (i + 1) * 13 * HOUR),
      });
    }

    const podcastId = crypto.randomUUID();
    content.podcasts.push({
      id: podcastId,
      creatorId: id.owls!,
      title: 'After Hours Radio',
      description: 'The Night Owls talk about making music with whatever is at hand.',
      coverArtUrl: media.showCover.url,
      coverArtKey: media.showCover.key,
      createdAt: new Date(now - 20 * DAY),
      feedGuid: deps.publicUrl ? podcastGuidOf(feedUrlOf(deps.publicUrl, podcastId)) : null,
      // The feed's itunes:owner e-mail: the creator's own address.
      ownerEmail: 'owls@canto.local',
    });
    for (const [i, e] of EPISODES.entries()) {
      const { audio, bytes, durationMs } = media.episodes[i]!;
      content.episodes.push({
        id: crypto.randomUUID(),
        podcastId,
        title: e.title,
        description: e.description,
        audioUrl: audio.url,
        audioKey: audio.key,
        // The feed's enclosure length and type.
        audioBytes: bytes,
        audioMime: MEDIA_TYPES.wav,
        durationMs,
        // Playable from the original at once; renditions follow, as for uploads.
        mediaStatus: deps.enqueueEpisodeMedia ? 'processing' : 'ready',
        episodeNumber: i + 1,
        publishedAt: new Date(now - (14 - i * 6) * DAY),
      });
    }

    // Listeners follow both artists; each follow notifies the artist, as a real follow does.
    for (const [n, listener] of ['ana', 'ben', 'cleo'].entries()) {
      for (const artist of ['nova', 'owls']) {
        const at = new Date(now - (5 - n) * DAY - HOUR * (artist === 'nova' ? 1 : 2));
        content.follows.push({
          followerId: id[listener]!,
          followingId: id[artist]!,
          createdAt: at,
        });
        content.notifications.push({
          userId: id[artist]!,
          type: 'new_follower',
          title: 'New follower',
          message: `${nameOf(listener)} started following you`,
          link: `/profile/${id[listener]}`,
          read: n === 0,
          createdAt: at,
        });
      }
    }
    content.follows.push({
      followerId: id.ana!,
      followingId: id.ben!,
      createdAt: new Date(now - 2 * DAY),
    });

    // Likes and plays over the last 7 days, so stats, recently played and the dashboard show
    // data; each after its song appeared.
    const songRows = content.songs;
    const sinceRelease = (song: (typeof songRows)[number]) => {
      const released = song.createdAt!.getTime();
      return new Date(released + Math.floor(random() * (now - released - 60_000)));
    };
    for (const [n, listener] of listeners.entries()) {
      const liked = new Set<number>();
      while (liked.size < 4) liked.add(Math.floor(random() * songRows.length));
      for (const index of liked) {
        content.likes.push({
          userId: listener,
          songId: songRows[index]!.id!,
          createdAt: sinceRelease(songRows[index]!),
        });
      }
      for (let p = 0; p < 14; p++) {
        const song = pick(songRows);
        const duration = song.durationMs!;
        const listenedMs =
          random() < 0.7 ? duration : Math.floor(duration * (0.2 + random() * 0.6));
        content.streams.push({
          userId: listener,
          songId: song.id!,
          playedAt: sinceRelease(song),
          listenedMs,
          completed: listenedMs >= duration * 0.9,
        });
      }
      const episode = content.episodes[n % content.episodes.length]!;
      content.streams.push({
        userId: listener,
        podcastEpisodeId: episode.id!,
        // After the newest episode's release (2 days ago), whichever episode it is.
        playedAt: new Date(now - (n + 1) * 10 * HOUR),
        listenedMs: episode.durationMs!,
        completed: true,
      });
    }
    // play_count rises by one per stream record, as a play does, on top of the demo history.
    for (const song of songRows) {
      song.playCount = song.playCount! + content.streams.filter((s) => s.songId === song.id).length;
    }

    const playlistSpecs = [
      {
        owner: 'ana',
        title: 'Focus Flow',
        description: 'Steady beats for deep work.',
        genres: ['Electronic', 'Classical', 'Jazz'],
      },
      { owner: 'ben', title: 'Road Trip', description: null, genres: ['Rock', 'Country', 'Pop'] },
      {
        owner: 'cleo',
        title: 'Late Night',
        description: 'For after midnight.',
        genres: ['Jazz', 'R&B', 'Hip Hop'],
      },
    ];
    for (const [n, p] of playlistSpecs.entries()) {
      const playlistId = crypto.randomUUID();
      content.playlists.push({
        id: playlistId,
        userId: id[p.owner]!,
        title: p.title,
        description: p.description,
        isPublic: n !== 1,
        coverArtUrl: null,
        createdAt: new Date(now - (n + 2) * DAY),
      });
      songRows
        .filter((s) => p.genres.includes(s.genre!))
        .forEach((s, position) =>
          content.playlistTracks.push({ playlistId, songId: s.id!, position }),
        );
    }

    for (const account of made) {
      content.notifications.push({
        userId: account.userId,
        type: 'system',
        title: 'Welcome to Canto',
        message: 'This server was started with demo content. Explore, play and make it yours.',
        link: null,
        read: false,
        createdAt: new Date(now - 7 * DAY),
      });
    }

    const enqueue = deps.enqueueMedia;
    const enqueueEpisode = deps.enqueueEpisodeMedia;
    await deps.repo.insertContent(
      content,
      enqueue &&
        (async (songIds, tx) => {
          for (const songId of songIds) await enqueue(songId, tx);
        }),
      enqueueEpisode &&
        (async (episodeIds, tx) => {
          for (const episodeId of episodeIds) await enqueueEpisode(episodeId, tx);
        }),
    );
    // Once the rows are in: a failed seed leaves no profile pointing at a file it removed.
    for (const key of WITH_AVATAR) {
      const userId = id[key];
      if (userId) await deps.profiles.setAvatar(userId, media.avatars[key]!.url);
    }
    return { accounts: made, songs: content.songs.length, episodes: content.episodes.length };
  } catch (error) {
    await removeWritten();
    throw error;
  }
}

/** The one block printed at start after seeding: who can sign in, and with what. */
export function credentialsBlock(result: DemoResult): string {
  const width = Math.max(...result.accounts.map((a) => a.email.length));
  const rows = result.accounts.map(
    (a) => `  ${a.role.padEnd(15)} ${a.email.padEnd(width)}  ${a.displayName}`,
  );
  return [
    '──────────────────────── Canto demo content ────────────────────────',
    `Seeded ${result.songs} songs and ${result.episodes} podcast episodes. Sign in with any of these`,
    `accounts; the password of each is: ${DEMO_PASSWORD}`,
    ...rows,
    'Demo accounts are for trying Canto out: start with DEMO=0 on a server others can reach.',
    '─────────────────────────────────────────────────────────────────────',
  ].join('\n');
}
