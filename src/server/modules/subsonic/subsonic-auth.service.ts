import crypto from 'node:crypto';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Role } from '../../../contracts/auth.contract.ts';
import type { AppPassword, CreatedAppPassword } from '../../../contracts/subsonic.contract.ts';
import type { Log } from '../../log.ts';
import { emailKey, rateRules, type RateLimiter } from '../../security/rate-limit.ts';
import type { SecretBox } from '../../security/secret-box.ts';
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

export function createSubsonicAuthService(deps: {
  repo: SubsonicPasswordsRepository;
  box: SecretBox;
  limiter: RateLimiter;
  rolesOf(userId: string): Promise<Role[]>;
  log: Log;
}) {
  const { repo, box, limiter } = deps;
  // Compared against when the user is unknown, so an unknown email costs what a known one does.
  const decoy = box.seal(crypto.randomBytes(28).toString('hex'));

  const openSecret = (sealed: string): string | null => {
    try {
      return box.open(sealed);
    } catch (error) {
      deps.log.error({ err: error }, 'subsonic app password does not open (SECRET_KEY changed?)');
      return null;
    }
  };

  async function callerOf(user: { id: string; email: string }): Promise<SubsonicCaller> {
    return { userId: user.id, username: user.email, roles: await deps.rolesOf(user.id) };
  }

  async function refuseIfLimited(ip: string, user: string) {
    const over = await limiter.over(
      { rule: rateRules.subsonicAuthFailPerIp, subject: ip },
      { rule: rateRules.subsonicAuthFailPerIpUser, subject: `${ip}:${emailKey(user)}` },
    );
    if (over) throw new SubsonicError(SubsonicCode.wrongCredentials, over.message ?? WRONG);
  }

  async function failed(ip: string, user: string, code: SubsonicCode, message: string) {
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
    const row = SECRET.test(apiKey) ? await repo.byId(idOf(apiKey)) : undefined;
    const secret = openSecret(row?.sealedSecret ?? decoy);
    const user = row ? await repo.emailOf(row.userId) : undefined;
    if (!row || secret === null || !sameText(secret, apiKey) || user === undefined)
      throw await failed(ip, '', SubsonicCode.invalidApiKey, 'Invalid API key');
    return callerOf({ id: row.userId, email: user });
  }

  return {
    /**
     * The caller of a /rest request, from u+t+s, u+p or apiKey; a SubsonicError otherwise.
     * Nothing is remembered between requests: a revoked password fails on its next use.
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
      const user = await repo.signInOf(u);
      const rows = user?.sealedSecrets ?? [];
      const sealed = rows.length ? rows : [decoy];
      let match = false;
      for (const one of sealed) {
        const secret = openSecret(one);
        if (secret === null) continue;
        const ok = token
          ? sameText(md5(secret + s), t.toLowerCase())
          : plain !== null && sameText(secret, plain);
        match ||= ok;
      }
      if (!user || !rows.length || !match)
        throw await failed(ip, u, SubsonicCode.wrongCredentials, WRONG);
      return callerOf(user);
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
      if (!(await repo.delete(userId, id)))
        throw new AppError(ErrorCode.notFound, 'App password not found');
    },
  };
}
