import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../core/clock.ts';
import type { Database } from './db/client.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { Log } from './log.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Ffmpeg } from './media/ffmpeg.ts';
import type { RateLimiter } from './security/rate-limit.ts';
import type { Storage } from './storage/storage.ts';

/**
 * What the platform hands every feature module: the database, time, the log and the shared
 * infrastructure. Settings are not here: each module takes its own typed `settings` in its
 * deps (app.ts maps them from env.ts), so its signature says what configuration it reads;
 * other modules' public APIs come in the deps too, never a bag of everything.
 */
export type ModuleContext = {
  /** SECRET_KEY, or the key generated once in DATA_DIR: resolved once for every module. */
  secretKey: string;
  database: Database;
  clock: Clock;
  log: Log;
  storage: Storage;
  mailer: Mailer;
  /** Work that must not hold a request (docs/decisions/0013); the host starts the worker. */
  jobs: JobQueue;
  /**
   * The one ffmpeg of the process: upload checks in a lane of their own, media jobs (songs,
   * episodes, ads) in MEDIA_WORKERS slots at nice 10 (docs/decisions/0014, 0028).
   */
  ffmpeg: Ffmpeg;
  /**
   * The rate limiter every process shares through rate_limits (security/rate-limit.ts): its
   * rules name what they count (sign-in, sign-up, recovery, MFA verification).
   */
  rateLimiter: RateLimiter;
};

/** A feature's routes as one plugin, registered at the root (routes carry their own prefixes). */
export type FeatureModule = { name: string; plugin: FastifyPluginAsync };
