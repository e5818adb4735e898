import crypto from 'node:crypto';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Role } from '../../../contracts/auth.contract.ts';
import type { AppPassword, CreatedAppPassword } from '../../../contracts/subsonic.contract.ts';
import type { Log } from '../../log.ts';
import { emailKey, rateRules, type RateLimiter } from '../../security/rate-limit.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { Credentials, SubsonicCredentialCache } from './subsonic-credential-cache.ts';
import type { SubsonicPasswordsRepository } from './subsonic-passwords.repository.ts';
import {
  SubsonicCode,
  SubsonicError,
  type SubsonicCaller,
  type SubsonicParams,
} from './subsonic-method.ts';

/** More than a phone, a tablet and a desktop player need; keeps token checks cheap. */
export const MAX_APP_PASSWORDS = 20;
/** Clients send 6–32 characters of salt; more is refused before any work. */
const MAX_SALT = 256;
const MAX_CREDENTIAL = 512;

const WRONG = 'Wrong username or password';

// A secret is its row's id (hex) and 12 random bytes (hex): an apiKey finds its row without a
// username, and the random part alone is what an attacker would have to guess (96 bits).
const SECRET = /^[0-9a-f]{56}$/;
const idOf = (secret: string) =>
  `${secret.slice(0, 8)}-${secret.slice(8, 12)}-${secret.slice(12, 16)}-${secret.slice(16, 20)}-${secret.slice(20, 32)}`;

const sameText = (a: string, b: string) => {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
};
const md5 = (text: string) => crypto.createHash('md5').update(text, 'utf8').digest('hex');

/** `enc:` + hex of the UTF-8 password, or the password itself; null when the hex is bad. */
function plainPassword(p: string): string | null {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  return Buffer.from(hex, 'hex').toString('utf8');
}

export type SubsonicAuthService = ReturnType<typeof createSubsonicAuthService>;

/** Failures remembered per address (and address + user) in this process, at most this many. */
const RECENT_FAILURES_MAX = 10_000;

export function createSubsonicAuthService(deps: {
  repo: SubsonicPasswordsRepository;
  box: SecretBox;
  limiter: RateLimiter;
  rolesOf(userId: string): Promise<Role[]>;
  cache: SubsonicCredentialCache;
  nowMs(): number;
  log: Log;
}) {
  const { repo, box, limiter, cache } = deps;
  // The limiter's rows are read only for an address (or address + user) that failed here
  // within the window: a right password from a clean address costs no read. See ADR 0034.
  const failedAt = new Map<string, number>();
  const windowMs = Math.max(
    rateRules.subsonicAuthFailPerIp.windowMs,
    rateRules.subsonicAuthFailPerIpUser.windowMs,
  );
  const recentlyFailed = (key: string) => {
    const at = failedAt.get(key);
    if (at === undefined) return false;
    if (at > deps.nowMs() - windowMs) return true;
    failedAt.delete(key);
    return false;
  };
  const rememberFailure = (key: string) => {
    failedAt.delete(key);
    if (failedAt.size >= RECENT_FAILURES_MAX) failedAt.delete(failedAt.keys().next().value!);
    failedAt.set(key, deps.nowMs());
  };
  // Compared against when the user is unknown, so an unknown email costs what a known one does.
  const decoy = crypto.randomBytes(28).toString('hex');

  const openSecret = (sealed: string): string | null => {
    try {
      return box.open(sealed);
    } catch (error) {
      deps.log.error({ err: error }, 'subsonic app password does not open (SECRET_KEY changed?)');
      return null;
    }
  };

  /** The user's opened secrets and roles; null for no such user. */
  async function credentialsOf(user: { id: string; email: string }): Promise<Credentials> {
    const [rows, roles] = await Promise.all([repo.listOf(user.id), deps.rolesOf(user.id)]);
    return {
      userId: user.id,
      email: user.email,
      roles,
      secrets: rows.flatMap((r) => {
        const secret = openSecret(r.sealedSecret);
        return secret === null ? [] : [{ id: r.id, secret }];
      }),
    };
  }

  const callerOf = (c: Credentials): SubsonicCaller => ({
    userId: c.userId,
    username: c.email,
    roles: c.roles,
  });

  async function refuseIfLimited(ip: string, user: string) {
    const ipUser = `${ip}:${emailKey(user)}`;
    if (!recentlyFailed(ip) && !recentlyFailed(ipUser)) return;
    const over = await limiter.over(
      { rule: rateRules.subsonicAuthFailPerIp, subject: ip },
      { rule: rateRules.subsonicAuthFailPerIpUser, subject: `${ip}:${emailKey(user)}` },
    );
    if (over) throw new SubsonicError(SubsonicCode.wrongCredentials, over.message ?? WRONG);
  }

  async function failed(ip: string, user: string, code: SubsonicCode, message: string) {
    rememberFailure(ip);
    rememberFailure(`${ip}:${emailKey(user)}`);
    try {
      await limiter.hit(
        { rule: rateRules.subsonicAuthFailPerIp, subject: ip },
        { rule: rateRules.subsonicAuthFailPerIpUser, subject: `${ip}:${emailKey(user)}` },
      );
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.rateLimited)
        return new SubsonicError(SubsonicCode.wrongCredentials, error.message);
      throw error;
    }
    return new SubsonicError(code, message);
  }

  async function byApiKey(apiKey: string, ip: string): Promise<SubsonicCaller> {
    await refuseIfLimited(ip, '');
    const id = SECRET.test(apiKey) ? idOf(apiKey) : null;
    const found =
      id === null
        ? null
        : await cache.through(`id:${id}`, deps.nowMs(), async () => {
            const row = await repo.byId(id);
            const email = row ? await repo.emailOf(row.userId) : undefined;
            return row && email !== undefined ? credentialsOf({ id: row.userId, email }) : null;
          });
    const secret = found?.secrets.find((one) => one.id === id)?.secret;
    // An unknown key is compared with the decoy, so it costs what a known one does.
    const match = sameText(secret ?? decoy, apiKey) && secret !== undefined;
    if (!found || !match) throw await failed(ip, '', SubsonicCode.invalidApiKey, 'Invalid API key');
    return callerOf(found);
  }

  return {
    /**
     * The caller of a /rest request, from u+t+s, u+p or apiKey; a SubsonicError otherwise.
     * Credentials are held briefly (subsonic-credential-cache.ts) and forgotten when a
     * password is made or revoked, here at once and elsewhere on the database's announcement.
     */
    async authenticate(params: SubsonicParams, ip: string): Promise<SubsonicCaller> {
      const apiKey = params.get('apiKey');
      const u = params.get('u');
      const p = params.get('p');
      const t = params.get('t');
      const s = params.get('s');
      if (apiKey !== undefined) {
        if (u !== undefined || p !== undefined || t !== undefined)
          throw new SubsonicError(
            SubsonicCode.conflictingAuth,
            'Multiple conflicting authentication mechanisms provided',
          );
        if (apiKey.length > MAX_CREDENTIAL)
          throw new SubsonicError(SubsonicCode.invalidApiKey, 'Invalid API key');
        return byApiKey(apiKey, ip);
      }
      if (!u)
        throw new SubsonicError(SubsonicCode.missingParameter, 'Required parameter is missing: u');
      const token = t !== undefined && s !== undefined;
      if (!token && p === undefined)
        throw new SubsonicError(
          SubsonicCode.missingParameter,
          t === undefined && s === undefined
            ? 'Required parameter is missing: p or t and s'
            : `Required parameter is missing: ${t === undefined ? 't' : 's'}`,
        );
      // Absurd input is refused before any lookup, hashing or counting.
      if (
        u.length > MAX_CREDENTIAL ||
        (token && (s.length > MAX_SALT || !/^[0-9a-fA-F]{32}$/.test(t))) ||
        (!token && p!.length > MAX_CREDENTIAL)
      )
        throw new SubsonicError(SubsonicCode.wrongCredentials, WRONG);
      await refuseIfLimited(ip, u);

      const plain = token ? null : plainPassword(p!);
      const found = await cache.through(`email:${emailKey(u)}`, deps.nowMs(), async () => {
        const user = await repo.userByEmail(u);
        return user ? credentialsOf(user) : null;
      });
      const secrets = found?.secrets.length ? found.secrets.map((one) => one.secret) : [decoy];
      let match = false;
      for (const secret of secrets) {
        const ok = token
          ? sameText(md5(secret + s), t.toLowerCase())
          : plain !== null && sameText(secret, plain);
        match ||= ok;
      }
      if (!found || !found.secrets.length || !match)
        throw await failed(ip, u, SubsonicCode.wrongCredentials, WRONG);
      return callerOf(found);
    },

    async create(userId: string, name: string): Promise<CreatedAppPassword> {
      if ((await repo.countOf(userId)) >= MAX_APP_PASSWORDS)
        throw new AppError(
          ErrorCode.conflict,
          `You can have at most ${MAX_APP_PASSWORDS} app passwords. Revoke one first.`,
        );
      const id = crypto.randomUUID();
      const secret = id.replace(/-/g, '') + crypto.randomBytes(12).toString('hex');
      const row = await repo.insert({ id, userId, name, sealedSecret: box.seal(secret) });
      cache.forgetUser(userId);
      return {
        id: row.id,
        name: row.name,
        password: secret,
        created_at: row.createdAt.toISOString(),
      };
    },

    async list(userId: string): Promise<AppPassword[]> {
      return (await repo.listOf(userId)).map((r) => ({
        id: r.id,
        name: r.name,
        created_at: r.createdAt.toISOString(),
      }));
    },

    async revoke(userId: string, id: string): Promise<void> {
      const removed = await repo.delete(userId, id);
      cache.forgetUser(userId);
      if (!removed) throw new AppError(ErrorCode.notFound, 'App password not found');
    },
  };
}
