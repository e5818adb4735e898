import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// Every setting the server reads, validated once at start and passed down as a plain object.
const bool = z
  .enum(['0', '1', 'true', 'false'], { message: 'must be 0, 1, true or false' })
  .transform((v) => v === '1' || v === 'true');

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.join(' or ')}//`,
  );

/** One IPv4/IPv6 address or CIDR range, as Fastify's trustProxy list takes them. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = address.includes('%') ? 0 : net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

const addressList = z.string().transform((v, ctx) => {
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad !== undefined)
    ctx.addIssue({ code: 'custom', message: `"${bad}" is not an IP address or CIDR range` });
  return entries;
});

/** An IP address or a host name (letters, digits, dots, hyphens), as `listen()` takes it. */
const host = z
  .string()
  .refine(
    (v) =>
      net.isIP(v) !== 0 ||
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v),
    'must be an IP address or a host name',
  );

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: host.default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    PUBLIC_URL: url(['http:', 'https:']).optional(),
    ADMIN_EMAIL: z.email('must be an email address').optional(),
    ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').max(72).optional(),
    DEMO: bool.optional(),
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_ENDPOINT: url(['http:', 'https:']).optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    MEDIA_OFFLOAD: z.enum(['none', 'x-accel', 'redirect']).optional(),
    CDN_URL: url(['http:', 'https:']).optional(),
    MEDIA_SWEEP_AGE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
    MEDIA_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
    JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    JOB_STOP_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(600).default(8),
    JOB_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
    SMTP_URL: url(['smtp:', 'smtps:']).optional(),
    MAIL_FROM: z.string().min(3).max(200).optional(),
    PAYMENTS: z.enum(['local', 'stripe']).default('local'),
    // The prefixes Stripe gives each kind of value: a value pasted into the wrong variable
    // fails at start, not at the first checkout.
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, "must be the webhook endpoint's signing secret (whsec_…)")
      .optional(),
    STRIPE_PRICE_ID: z
      .string()
      .regex(/^price_\S+$/, 'must be the id of a recurring Stripe price (price_…)')
      .optional(),
    // Where the Stripe API is: tests point it at a local fake (tests/helpers/fake-stripe.ts).
    STRIPE_API_URL: url(['http:', 'https:']).default('https://api.stripe.com'),
    CATALOGUE_URL: url(['http:', 'https:']).default('https://itunes.apple.com'),
    AI_PROVIDER: z.enum(['local', 'openai']).default('local'),
    OPENAI_BASE_URL: url(['http:', 'https:']).default('https://api.openai.com/v1'),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
    OPENAI_IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
    OPENAI_REALTIME_MODEL: z.string().min(1).default('gpt-4o-realtime-preview'),
    AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    AI_GENERATIONS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    FFMPEG_PATH: z.string().min(1).optional(),
    MEDIA_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
    MEDIA_MEMORY_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(128),
    CATALOGUE_ALLOW_PRIVATE: bool.default(false),
    LISTENBRAINZ_URL: url(['http:', 'https:']).default('https://api.listenbrainz.org'),
    LASTFM_API_URL: url(['http:', 'https:']).default('https://ws.audioscrobbler.com/2.0/'),
    LASTFM_AUTH_URL: url(['http:', 'https:']).default('https://www.last.fm'),
    LASTFM_API_KEY: z.string().min(1).max(200).optional(),
    LASTFM_API_SECRET: z.string().min(1).max(200).optional(),
    SCROBBLE_ALLOW_PRIVATE: bool.default(false),
    CATALOGUE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
    SEARCH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    SEARCH_CONCURRENCY: z.coerce.number().int().min(0).max(1024).optional(),
    PLAY_COUNT_FOLD_SECONDS: z.coerce.number().int().min(0).max(3600).default(2),
    REVENUE_MONTH_END_JOB: bool.default(true),
    RECOMMENDATIONS_REFRESH_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
    AD_SHOWING_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
    AD_SHOWING_ASKS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
    TRUST_PROXY: addressList.default([]),
    SESSION_MAX_LIFETIME_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    LIVE_MESSAGES_PER_SECOND: z.coerce.number().int().min(0).max(10_000).default(20),
    LIVE_MESSAGE_BURST: z.coerce.number().int().min(1).max(100_000).default(50),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    CANTO_DEV: bool.default(false),
  })
  .superRefine((v, ctx) => {
    if (v.STORAGE === 's3') {
      for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!v[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when STORAGE=s3' });
      }
    }
    const offload = v.MEDIA_OFFLOAD ?? (v.STORAGE === 's3' ? 'redirect' : 'none');
    // nginx reads files from DATA_DIR/media; a redirect needs a store that serves URLs.
    const needs = { none: v.STORAGE, 'x-accel': 'local', redirect: 's3' }[offload];
    if (v.STORAGE !== needs)
      ctx.addIssue({ code: 'custom', path: ['MEDIA_OFFLOAD'], message: `needs STORAGE=${needs}` });
    if (v.CDN_URL && offload !== 'redirect')
      ctx.addIssue({ code: 'custom', path: ['CDN_URL'], message: 'needs MEDIA_OFFLOAD=redirect' });
    if (v.PAYMENTS === 'stripe') {
      for (const key of [
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'STRIPE_PRICE_ID',
      ] as const) {
        if (!v[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when PAYMENTS=stripe',
          });
      }
    }
    if ((v.ADMIN_EMAIL && !v.ADMIN_PASSWORD) || (!v.ADMIN_EMAIL && v.ADMIN_PASSWORD)) {
      const missing = v.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required when the other admin variable is set',
      });
    }
  });

export type Env = {
  port: number;
  /** Address to listen on (HOST); all interfaces by default. */
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Undefined means: generate one and keep it in DATA_DIR (see secrets.ts). */
  secretKey: string | undefined;
  publicUrl: string;
  /** Whether PUBLIC_URL was given: without it links made for elsewhere (feeds) name localhost. */
  publicUrlSet: boolean;
  admin: { email: string; password: string } | undefined;
  demo: boolean;
  storage: 'local' | 's3';
  s3: {
    endpoint?: string;
    bucket?: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
  };
  /** How a verified /media request is answered: by Node, nginx X-Accel-Redirect or a redirect. */
  mediaOffload: 'none' | 'x-accel' | 'redirect';
  /** With redirect: a CDN base URL that replaces presigned store URLs (same signature scheme). */
  cdnUrl: string | undefined;
  /**
   * The media reconciler (modules/media/media-reconciler.ts): files no row references and
   * leftovers of crashed uploads go once older than `ageSeconds` (younger ones may belong to
   * an upload in flight); it runs at start and every `intervalSeconds` (0: only at start).
   */
  mediaSweep: { ageSeconds: number; intervalSeconds: number };
  /**
   * The job queue (src/server/jobs, docs/decisions/0013): how often a worker looks for due
   * jobs nobody announced, how long a claim holds a job without renewal (a killed worker's
   * job runs again after it), how long a stop waits for running jobs before giving
   * them back, and the wait before a failed job's first retry (it doubles with each further
   * failure, up to an hour).
   */
  jobs: {
    pollIntervalMs: number;
    leaseSeconds: number;
    stopTimeoutSeconds: number;
    retrySeconds: number;
  };
  smtpUrl: string | undefined;
  /** The From of every mail; a default when unset. */
  mailFrom: string | undefined;
  payments: 'local' | 'stripe';
  /** PAYMENTS=stripe needs all three (checked at start); apiUrl is Stripe's unless a test says. */
  stripe: { secretKey?: string; webhookSecret?: string; priceId?: string; apiUrl: string };
  catalogueUrl: string;
  /**
   * The AI provider (AI_PROVIDER): `local` works offline; `openai` is any OpenAI-compatible
   * server at OPENAI_BASE_URL (OpenAI, Ollama, vLLM), whose key stays on the server.
   * timeoutMs bounds one provider call; generationsPerHour is each user's budget.
   */
  ai: {
    provider: 'local' | 'openai';
    openai: {
      baseUrl: string;
      apiKey: string | undefined;
      chatModel: string;
      imageModel: string;
      realtimeModel: string;
    };
    timeoutMs: number;
    generationsPerHour: number;
  };
  /** The ffmpeg binary that measures uploads by decoding them; unset: the npm package's. */
  ffmpegPath: string | undefined;
  /**
   * Media jobs this process runs at once, of every kind together (MEDIA_WORKERS; default one
   * core fewer than there are, at least one): each keeps a core busy, and the core left over
   * serves people. Upload checks have a lane of their own beside them (docs/decisions/0028).
   */
  mediaWorkers: number;
  /**
   * Memory for hot media files on local storage, in MB (MEDIA_MEMORY_CACHE_MB, default 128;
   * 0: off): a file read again by small ranges is then served from memory (ADR 0010).
   */
  mediaMemoryCacheMb: number;
  /**
   * CATALOGUE_ALLOW_PRIVATE=1 lets the catalogue be reached on loopback or private addresses:
   * for tests and development with a local fake only (otherwise such targets are refused).
   */
  catalogueAllowPrivate: boolean;
  /** How long one catalogue request may take, answer included (CATALOGUE_TIMEOUT_MS). */
  catalogueTimeoutMs: number;
  /**
   * Scrobbling (docs/decisions/0038): ListenBrainz's API (LISTENBRAINZ_URL), Last.fm's API and
   * the site where listeners allow access (LASTFM_API_URL, LASTFM_AUTH_URL; Last.fm is offered
   * only with both LASTFM_API_KEY and LASTFM_API_SECRET), and SCROBBLE_ALLOW_PRIVATE=1 for
   * fakes on loopback (tests and development only).
   */
  scrobbling: {
    listenBrainzUrl: string;
    lastfm: { apiUrl: string; authUrl: string; apiKey?: string; apiSecret?: string };
    allowPrivate: boolean;
  };
  /** How long a search answer is reused (0: never); this process's own writes drop it at once. */
  searchCacheSeconds: number;
  /**
   * Searches this process lets in to the database at once, the rest waiting in order
   * (SEARCH_CONCURRENCY; default two per core, 0: no limit). ADR 0011 "Admission".
   */
  searchConcurrency: number;
  /**
   * How often this process folds pending plays into songs' play counts and pending listening
   * changes into the listener totals (ADR 0016; PLAY_COUNT_FOLD_SECONDS, default 2; 0: never,
   * another process or a test does it).
   */
  playCountFoldSeconds: number;
  /**
   * Whether this process schedules the month-end revenue run at start (REVENUE_MONTH_END_JOB,
   * default on; each month runs once however many processes schedule it). ADR 0029.
   */
  revenueMonthEndJob: boolean;
  /**
   * How often the co-listening table behind recommendations is rebuilt by the job queue
   * (RECOMMENDATIONS_REFRESH_MINUTES, default 60; 0: this process does not schedule it).
   * ADR 0032.
   */
  recommendationsRefreshMinutes: number;
  /**
   * The ads' frequency cap: a free listener is handed at most one showing this often
   * (AD_SHOWING_INTERVAL_SECONDS; 0: no cap). ADR 0023.
   */
  adShowingIntervalSeconds: number;
  /** Ad showings one listener may ask for per minute, past which 429 (AD_SHOWING_ASKS_PER_MINUTE). */
  adShowingAsksPerMinute: number;
  logLevel: string;
  /** Reverse proxies (IPs/CIDRs) whose X-Forwarded-For names the client; empty: none. */
  trustProxy: string[];
  /** A session ends this many days after sign-in, however often it is refreshed. */
  sessionMaxLifetimeDays: number;
  /**
   * Messages one live socket may send: a rate with a burst, beyond which it is closed with
   * 1008 (LIVE_MESSAGES_PER_SECOND, 0: no limit; LIVE_MESSAGE_BURST).
   */
  liveMessageBudget: { perSecond: number; burst: number } | null;
  /** CANTO_DEV=1, set by `npm run dev`: Vite serves the web app, so no built one is expected. */
  dev: boolean;
};

export class EnvError extends Error {}

/** Parses the environment; throws EnvError whose message is one line naming the variable. */
/** MEDIA_WORKERS unset: one core left for requests and upload checks (docs/decisions/0028). */
export function defaultMediaWorkers(cores: number): number {
  return Math.max(1, cores - 1);
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as unset, the way shells and .env files usually mean them.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new EnvError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const v = result.data;
  const port = v.PORT;
  return {
    port,
    host: v.HOST,
    dataDir: path.resolve(v.DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    secretKey: v.SECRET_KEY,
    publicUrl: (v.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlSet: v.PUBLIC_URL !== undefined,
    admin:
      v.ADMIN_EMAIL && v.ADMIN_PASSWORD
        ? { email: v.ADMIN_EMAIL, password: v.ADMIN_PASSWORD }
        : undefined,
    // Demo content is on by default only for the embedded database (a server is production's).
    demo: v.DEMO ?? !v.DATABASE_URL,
    storage: v.STORAGE,
    s3: {
      endpoint: v.S3_ENDPOINT,
      bucket: v.S3_BUCKET,
      region: v.S3_REGION,
      accessKeyId: v.S3_ACCESS_KEY_ID,
      secretAccessKey: v.S3_SECRET_ACCESS_KEY,
    },
    mediaOffload: v.MEDIA_OFFLOAD ?? (v.STORAGE === 's3' ? 'redirect' : 'none'),
    cdnUrl: v.CDN_URL?.replace(/\/$/, ''),
    mediaSweep: {
      ageSeconds: v.MEDIA_SWEEP_AGE_SECONDS,
      intervalSeconds: v.MEDIA_SWEEP_INTERVAL_SECONDS,
    },
    jobs: {
      pollIntervalMs: v.JOB_POLL_INTERVAL_MS,
      leaseSeconds: v.JOB_LEASE_SECONDS,
      stopTimeoutSeconds: v.JOB_STOP_TIMEOUT_SECONDS,
      retrySeconds: v.JOB_RETRY_SECONDS,
    },
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    payments: v.PAYMENTS,
    stripe: {
      secretKey: v.STRIPE_SECRET_KEY,
      webhookSecret: v.STRIPE_WEBHOOK_SECRET,
      priceId: v.STRIPE_PRICE_ID,
      apiUrl: v.STRIPE_API_URL.replace(/\/$/, ''),
    },
    catalogueUrl: v.CATALOGUE_URL.replace(/\/$/, ''),
    ai: {
      provider: v.AI_PROVIDER,
      openai: {
        baseUrl: v.OPENAI_BASE_URL.replace(/\/$/, ''),
        apiKey: v.OPENAI_API_KEY,
        chatModel: v.OPENAI_CHAT_MODEL,
        imageModel: v.OPENAI_IMAGE_MODEL,
        realtimeModel: v.OPENAI_REALTIME_MODEL,
      },
      timeoutMs: v.AI_TIMEOUT_MS,
      generationsPerHour: v.AI_GENERATIONS_PER_HOUR,
    },
    ffmpegPath: v.FFMPEG_PATH,
    mediaWorkers: v.MEDIA_WORKERS ?? defaultMediaWorkers(os.availableParallelism()),
    mediaMemoryCacheMb: v.MEDIA_MEMORY_CACHE_MB,
    catalogueAllowPrivate: v.CATALOGUE_ALLOW_PRIVATE,
    catalogueTimeoutMs: v.CATALOGUE_TIMEOUT_MS,
    scrobbling: {
      listenBrainzUrl: v.LISTENBRAINZ_URL.replace(/\/$/, ''),
      lastfm: {
        apiUrl: v.LASTFM_API_URL,
        authUrl: v.LASTFM_AUTH_URL.replace(/\/$/, ''),
        apiKey: v.LASTFM_API_KEY,
        apiSecret: v.LASTFM_API_SECRET,
      },
      allowPrivate: v.SCROBBLE_ALLOW_PRIVATE,
    },
    searchCacheSeconds: v.SEARCH_CACHE_SECONDS,
    searchConcurrency: v.SEARCH_CONCURRENCY ?? 2 * Math.max(1, os.availableParallelism()),
    playCountFoldSeconds: v.PLAY_COUNT_FOLD_SECONDS,
    revenueMonthEndJob: v.REVENUE_MONTH_END_JOB,
    recommendationsRefreshMinutes: v.RECOMMENDATIONS_REFRESH_MINUTES,
    adShowingIntervalSeconds: v.AD_SHOWING_INTERVAL_SECONDS,
    adShowingAsksPerMinute: v.AD_SHOWING_ASKS_PER_MINUTE,
    logLevel: v.LOG_LEVEL,
    trustProxy: v.TRUST_PROXY,
    sessionMaxLifetimeDays: v.SESSION_MAX_LIFETIME_DAYS,
    liveMessageBudget:
      v.LIVE_MESSAGES_PER_SECOND > 0
        ? { perSecond: v.LIVE_MESSAGES_PER_SECOND, burst: v.LIVE_MESSAGE_BURST }
        : null,
    dev: v.CANTO_DEV,
  };
}
