import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultMediaWorkers, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('has working defaults for a fresh clone', () => {
    const env = parseEnv({});
    expect(env.port).toBe(3000);
    expect(env.dataDir).toMatch(/data$/);
    expect(env.databaseUrl).toBeUndefined();
    expect(env.demo).toBe(true);
    expect(env.storage).toBe('local');
    expect(env.payments).toBe('local');
    expect(env.publicUrl).toBe('http://localhost:3000');
  });

  it('turns demo content off by default on a database server, and on DEMO=0', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).demo).toBe(false);
    expect(parseEnv({ DEMO: '0' }).demo).toBe(false);
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', DEMO: '1' }).demo).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'secret-pass' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'a@b.co' }, 'ADMIN_PASSWORD'],
    [{ DEMO: 'maybe' }, 'DEMO'],
    [{ STORAGE: 'ftp' }, 'STORAGE'],
    [{ STORAGE: 's3' }, 'S3_BUCKET'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ PAYMENTS: 'stripe' }, 'STRIPE_SECRET_KEY'],
    [{ PAYMENTS: 'paypal' }, 'PAYMENTS'],
    [{ STRIPE_SECRET_KEY: 'pk_test_public' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_WEBHOOK_SECRET: 'sk_test_123' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_PRICE_ID: 'prod_123' }, 'STRIPE_PRICE_ID'],
    [{ STRIPE_API_URL: 'api.stripe.com' }, 'STRIPE_API_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CATALOGUE_URL: 'ftp://x' }, 'CATALOGUE_URL'],
    [{ CATALOGUE_ALLOW_PRIVATE: 'yes' }, 'CATALOGUE_ALLOW_PRIVATE'],
    [{ CATALOGUE_TIMEOUT_MS: '5' }, 'CATALOGUE_TIMEOUT_MS'],
    [{ TRUST_PROXY: 'proxy.internal' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '::1/129' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/8/1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '300.0.0.1' }, 'TRUST_PROXY'],
    [{ HOST: 'two words' }, 'HOST'],
    [{ HOST: 'under_score.example' }, 'HOST'],
    [{ HOST: 'http://localhost' }, 'HOST'],
    [{ CANTO_DEV: 'yes' }, 'CANTO_DEV'],
    [{ SESSION_MAX_LIFETIME_DAYS: '0' }, 'SESSION_MAX_LIFETIME_DAYS'],
    [{ SESSION_MAX_LIFETIME_DAYS: '2.5' }, 'SESSION_MAX_LIFETIME_DAYS'],
  ])('rejects %o with one line naming %s', (source, name) => {
    expect(() => parseEnv(source)).toThrowError(
      new RegExp(`^Invalid environment variable ${name}: [^\\n]+$`),
    );
  });

  it('takes payments locally by default; PAYMENTS=stripe names each missing Stripe value', () => {
    expect(parseEnv({}).payments).toBe('local');
    expect(parseEnv({}).stripe.apiUrl).toBe('https://api.stripe.com');
    const stripe = {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_ID: 'price_abc',
    };
    expect(parseEnv({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111/' })).toMatchObject({
      payments: 'stripe',
      stripe: {
        secretKey: 'sk_test_abc',
        webhookSecret: 'whsec_abc',
        priceId: 'price_abc',
        apiUrl: 'http://127.0.0.1:12111',
      },
    });
    expect(parseEnv({ ...stripe, STRIPE_SECRET_KEY: 'rk_live_abc' }).stripe.secretKey).toBe(
      'rk_live_abc',
    );
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID']) {
      expect(() => parseEnv({ ...stripe, [name]: '' })).toThrowError(
        `Invalid environment variable ${name}: is required when PAYMENTS=stripe`,
      );
    }
  });

  it('ends sessions 90 days after sign-in unless SESSION_MAX_LIFETIME_DAYS says otherwise', () => {
    expect(parseEnv({}).sessionMaxLifetimeDays).toBe(90);
    expect(parseEnv({ SESSION_MAX_LIFETIME_DAYS: '7' }).sessionMaxLifetimeDays).toBe(7);
  });

  it('runs one media job per core but one unless MEDIA_WORKERS says otherwise (at least 1)', () => {
    expect(parseEnv({}).mediaWorkers).toBe(Math.max(1, os.availableParallelism() - 1));
    expect([1, 2, 4, 16].map(defaultMediaWorkers)).toEqual([1, 1, 3, 15]);
    expect(parseEnv({ MEDIA_WORKERS: '3' }).mediaWorkers).toBe(3);
    expect(() => parseEnv({ MEDIA_WORKERS: '0' })).toThrow(/MEDIA_WORKERS/);
  });

  it('keeps 128 MB of hot media in memory unless MEDIA_MEMORY_CACHE_MB says otherwise (0: off)', () => {
    expect(parseEnv({}).mediaMemoryCacheMb).toBe(128);
    expect(parseEnv({ MEDIA_MEMORY_CACHE_MB: '0' }).mediaMemoryCacheMb).toBe(0);
    expect(parseEnv({ MEDIA_MEMORY_CACHE_MB: '512' }).mediaMemoryCacheMb).toBe(512);
    expect(() => parseEnv({ MEDIA_MEMORY_CACHE_MB: '-1' })).toThrow(/MEDIA_MEMORY_CACHE_MB/);
  });

  it('lets two searches per core in to the database at once unless SEARCH_CONCURRENCY says otherwise', () => {
    expect(parseEnv({}).searchConcurrency).toBe(2 * os.availableParallelism());
    expect(parseEnv({ SEARCH_CONCURRENCY: '6' }).searchConcurrency).toBe(6);
    expect(parseEnv({ SEARCH_CONCURRENCY: '0' }).searchConcurrency).toBe(0);
    expect(() => parseEnv({ SEARCH_CONCURRENCY: '-1' })).toThrow(/SEARCH_CONCURRENCY/);
  });

  it('refuses private catalogue targets and waits 3 s unless told otherwise', () => {
    expect(parseEnv({})).toMatchObject({ catalogueAllowPrivate: false, catalogueTimeoutMs: 3000 });
    expect(parseEnv({ CATALOGUE_ALLOW_PRIVATE: '1', CATALOGUE_TIMEOUT_MS: '500' })).toMatchObject({
      catalogueAllowPrivate: true,
      catalogueTimeoutMs: 500,
    });
  });

  it('reads the mail sender from MAIL_FROM, here and nowhere else', () => {
    expect(parseEnv({}).mailFrom).toBeUndefined();
    expect(parseEnv({ MAIL_FROM: 'Radio <hi@example.test>' }).mailFrom).toBe(
      'Radio <hi@example.test>',
    );
  });

  it('trusts no proxy by default and reads TRUST_PROXY as a list of addresses and CIDRs', () => {
    expect(parseEnv({}).trustProxy).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8,' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
  });

  it('listens on every interface unless HOST names an address or a host name', () => {
    expect(parseEnv({}).host).toBe('0.0.0.0');
    expect(parseEnv({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(parseEnv({ HOST: '::' }).host).toBe('::');
    expect(parseEnv({ HOST: 'localhost' }).host).toBe('localhost');
    expect(parseEnv({ HOST: 'canto-1.internal' }).host).toBe('canto-1.internal');
  });

  it('is in production mode unless CANTO_DEV is set (npm run dev sets it)', () => {
    expect(parseEnv({}).dev).toBe(false);
    expect(parseEnv({ CANTO_DEV: '1' }).dev).toBe(true);
    expect(parseEnv({ CANTO_DEV: 'true' }).dev).toBe(true);
    expect(parseEnv({ CANTO_DEV: '0' }).dev).toBe(false);
  });

  it('accepts a complete S3 configuration', () => {
    const env = parseEnv({
      STORAGE: 's3',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    expect(env.s3.bucket).toBe('b');
    expect(env.s3.region).toBe('us-east-1');
  });
});
