import type { Env } from './env.ts';
import type { Database } from './db/client.ts';
import { AppError, ErrorCode } from '../core/errors.ts';
import type { RolesModule } from './modules/roles/roles.module.ts';
import type { ProfileRecords } from './modules/social/social.module.ts';
import { createDemoRepository } from './demo/demo.repository.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { enqueueEpisodeMedia } from './modules/podcasts/podcasts.module.ts';
import { enqueueSongMedia } from './modules/songs/songs.module.ts';
import type { Storage } from './storage/storage.ts';
import {
  credentialsBlock,
  DEMO_EMAILS,
  seedDemo,
  type Accounts,
  type DemoResult,
} from './demo/seed.ts';
import type { Log } from './log.ts';

export type BootstrapDeps = {
  env: Pick<Env, 'admin' | 'demo' | 'publicUrl'>;
  database: Database;
  log: Log;
  /** The app's account functions (buildApp's `accounts`): demo code never sees auth internals. */
  accounts: Accounts;
  /** The app's roles module: the admin role and the demo's roles are granted through it. */
  roles: RolesModule;
  /** The app's profile records (the social module's): the demo artists' bios. */
  profiles: Pick<ProfileRecords, 'setBio' | 'setAvatar'>;
  /** The app's storage: demo media goes where uploads go. */
  storage: Storage;
  now?: () => Date;
  /** Where the demo credentials block goes; the console by default so it reads as one block. */
  print?: (text: string) => void;
  /** The app's queue (buildApp's `jobs`): demo songs get their media jobs like uploads. */
  jobs?: JobQueue;
  /** Seconds of audio per demo song (tests keep them short). */
  demoSongSeconds?: (index: number) => number;
};

export type BootstrapResult = { admin: 'created' | 'promoted' | 'none'; demo: DemoResult | null };

/**
 * Start-up work after migrations: the admin account from ADMIN_EMAIL, then demo content
 * (env.demo) when the database had no account before this start, or only the accounts of a
 * demo seed that stopped half way.
 */
export async function bootstrap(deps: BootstrapDeps): Promise<BootstrapResult> {
  const { env, database, log, roles } = deps;
  const demoRepo = createDemoRepository(database.db);
  // Decided before the admin is made, or ADMIN_EMAIL would make every database look used.
  // A seed that stopped half way (only demo/admin accounts, no catalogue) resumes.
  const seedState = await demoRepo.seedState(DEMO_EMAILS, env.admin?.email.trim().toLowerCase());

  const admin = env.admin ? await ensureAdmin(env.admin, deps.accounts, roles, log) : 'none';

  let demo: DemoResult | null = null;
  if (env.demo && seedState !== 'used') {
    if (seedState === 'partial')
      log.info({}, 'resuming demo content an earlier start left half done');
    const started = Date.now();
    try {
      demo = await seedDemo({
        accounts: deps.accounts,
        roles,
        profiles: deps.profiles,
        repo: demoRepo,
        storage: deps.storage,
        now: deps.now ?? (() => new Date()),
        withAdmin: !env.admin,
        songSeconds: deps.demoSongSeconds,
        enqueueMedia: deps.jobs && ((songId, tx) => enqueueSongMedia(deps.jobs!, songId, tx)),
        enqueueEpisodeMedia:
          deps.jobs && ((episodeId, tx) => enqueueEpisodeMedia(deps.jobs!, episodeId, tx)),
        publicUrl: env.publicUrl,
      });
      log.info({ ...(await demoRepo.counts()), ms: Date.now() - started }, 'demo content seeded');
      (deps.print ?? ((text: string) => console.log(text)))(credentialsBlock(demo));
    } catch (error) {
      // Demo content is a convenience: the server still starts without it.
      log.error({ err: error }, 'demo content could not be seeded; the next start tries again');
    }
  }
  return { admin, demo };
}

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD: create that account as admin, or give an
 * existing one the admin role. An existing password is never changed: the variable may be
 * stale while the admin has since chosen another.
 */
async function ensureAdmin(
  admin: { email: string; password: string },
  accounts: Accounts,
  roles: RolesModule,
  log: Log,
): Promise<'created' | 'promoted'> {
  const existing = await accounts.findByEmail(admin.email);
  if (existing) {
    await roles.grant(existing.userId, 'admin');
    log.info({ email: admin.email }, 'ADMIN_EMAIL: existing account has the admin role');
    return 'promoted';
  }
  try {
    const { userId } = await accounts.create({
      email: admin.email,
      password: admin.password,
      displayName: 'Admin',
    });
    await roles.grant(userId, 'admin');
    log.info({ email: admin.email }, 'ADMIN_EMAIL: admin account created');
    return 'created';
  } catch (error) {
    // Another process starting at the same moment created it first: promote that one.
    if (!(error instanceof AppError && error.code === ErrorCode.conflict)) throw error;
    const raced = await accounts.findByEmail(admin.email);
    if (!raced) throw error;
    await roles.grant(raced.userId, 'admin');
    return 'promoted';
  }
}
