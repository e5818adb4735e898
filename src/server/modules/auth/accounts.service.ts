import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { UsersRepository } from './users.repository.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import type { ProfileRecords } from '../social/social.module.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../security/passwords.ts';

export type AccountsService = ReturnType<typeof createAccountsService>;

/** Sign-in never says whether the email exists: one message for both failures. */
export const invalidCredentials = () =>
  new AppError(ErrorCode.invalidCredentials, 'Invalid login credentials');

const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function createAccountsService(deps: {
  users: UsersRepository;
  /** The social module's: it makes every profile row. */
  profiles: Pick<ProfileRecords, 'create'>;
  /** The roles module's: it makes every role row (a sign-up's pending_artist request). */
  roles: Pick<RolesModule, 'grant'>;
}) {
  const { users, profiles, roles } = deps;
  return {
    /** The account, its profile and, when asked, the pending_artist request, atomically. */
    async create(input: {
      email: string;
      password: string;
      displayName: string;
      isArtist?: boolean;
    }) {
      const passwordHash = await hashPassword(input.password);
      const displayName = input.displayName.trim();
      const created = await users.create(
        { email: normaliseEmail(input.email), passwordHash },
        async (userId, tx) => {
          await profiles.create(userId, displayName, tx);
          if (input.isArtist) await roles.grant(userId, 'pending_artist', tx);
        },
      );
      // Sign-up may say the address is taken; sign-in never does.
      if (!created) throw new AppError(ErrorCode.conflict, 'User already registered');
      return { userId: created.id };
    },

    async findByEmail(email: string): Promise<{ userId: string } | null> {
      const row = await users.findCredentialsByEmail(normaliseEmail(email));
      return row ? { userId: row.id } : null;
    },

    async setPassword(userId: string, password: string): Promise<void> {
      const updated = await users.setPasswordHash(userId, await hashPassword(password));
      if (!updated) throw new AppError(ErrorCode.notFound, 'User not found');
    },

    /** The user id for matching credentials; the same error and work for every failure. */
    async checkCredentials(email: string, password: string): Promise<string> {
      const row = await users.findCredentialsByEmail(normaliseEmail(email));
      const ok = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), password);
      if (!row || !ok) throw invalidCredentials();
      return row.id;
    },
  };
}
