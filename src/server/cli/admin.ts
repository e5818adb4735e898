import { pathToFileURL } from 'node:url';
import { EnvError, parseEnv } from '../env.ts';
import { openDatabase, type Database } from '../db/client.ts';
import {
  createRoleHolders,
  createRolesModule,
  type RolesModule,
} from '../modules/roles/roles.module.ts';
import { roleSchema, type Role } from '../../contracts/auth.contract.ts';
import { systemClock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import { revenueMessages } from '../../core/validation/revenue.rules.ts';
import { centsToDollars, isMonth } from '../../core/validation/revenue-month.rules.ts';
import { createRevenueRuns } from '../modules/revenue/revenue.module.ts';

/*
 * `npm run admin -- <grant|revoke|list> …`: role changes without the web
 * app, e.g. to name the first admin. With the embedded database, stop the server first:
 * a PGlite data directory supports one process at a time.
 */

export const USAGE = [
  'Usage: npm run admin -- <command>',
  '  grant  <email> <role>   give a role (artist, admin, pending_artist)',
  '  revoke <email> <role>   take a role away',
  '  list   [email]          roles of one account, or of every account that has one',
  '  revenue <YYYY-MM>        calculate a month that has begun (replaces its earlier result)',
].join('\n');

/** Exit codes: 0 done, 1 the command could not be carried out, 2 wrong usage. */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const;

export type AdminCommand =
  | { kind: 'help' }
  | { kind: 'usage-error'; problem: string }
  | { kind: 'grant' | 'revoke'; email: string; role: Role }
  | { kind: 'list'; email: string | undefined }
  | { kind: 'revenue'; month: string };

/** Pure: the command line to a command, so usage errors never need a database. */
export function parseAdminArgs(args: string[]): AdminCommand {
  const [command, email, roleArg, ...extra] = args;
  const usageError = (problem: string): AdminCommand => ({ kind: 'usage-error', problem });
  if (!command) return usageError('No command given.');
  if (['help', '--help', '-h'].includes(command)) return { kind: 'help' };
  if (extra.length > 0) return usageError(`Unexpected arguments: ${extra.join(' ')}`);
  if (command === 'revenue') {
    if (!email || roleArg) return usageError('revenue takes one month, YYYY-MM.');
    return isMonth(email)
      ? { kind: 'revenue', month: email }
      : usageError(revenueMessages.monthInvalid);
  }
  if (command === 'list') {
    return roleArg
      ? usageError('list takes at most an email.')
      : { kind: 'list', email: email && normalizeEmail(email) };
  }
  if (command !== 'grant' && command !== 'revoke')
    return usageError(`Unknown command "${command}".`);
  if (!email || !roleArg) return usageError(`${command} needs an email and a role.`);
  const role = roleSchema.safeParse(roleArg);
  if (!role.success)
    return usageError(
      `Unknown role "${roleArg}"; expected one of ${roleSchema.options.join(', ')}.`,
    );
  return { kind: command, email: normalizeEmail(email), role: role.data };
}

// users.email is stored trimmed and lower-cased (auth.schema.ts).
const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type AdminDeps = {
  roles: RolesModule;
  findUserId(email: string): Promise<string | null>;
  /** Every account with at least one role, for `list` without an email. */
  listRoleHolders(): Promise<{ email: string; roles: Role[] }[]>;
  /** The month's revenue run (docs/decisions/0029). */
  calculateRevenue(
    month: string,
  ): Promise<{ artistsProcessed: number; totalPremiumPoolCents: bigint }>;
  out(line: string): void;
  err(line: string): void;
};

/** Runs a parsed command; returns the process exit code. */
export async function runAdminCommand(command: AdminCommand, deps: AdminDeps): Promise<number> {
  switch (command.kind) {
    case 'help':
      deps.out(USAGE);
      return ExitCode.ok;
    case 'usage-error':
      deps.err(`${command.problem}\n${USAGE}`);
      return ExitCode.usage;
    case 'list': {
      if (!command.email) {
        const holders = await deps.listRoleHolders();
        if (holders.length === 0) deps.out('No account has a role.');
        for (const h of holders) deps.out(`${h.email}\t${h.roles.join(', ')}`);
        return ExitCode.ok;
      }
      const userId = await deps.findUserId(command.email);
      if (!userId) return unknownEmail(deps, command.email);
      const roles = (await deps.roles.rolesOf(userId)).sort();
      deps.out(`${command.email}\t${roles.length ? roles.join(', ') : '(no roles)'}`);
      return ExitCode.ok;
    }
    case 'revenue': {
      try {
        const run = await deps.calculateRevenue(command.month);
        deps.out(
          `Revenue calculated for ${run.artistsProcessed} artists in ${command.month}; ` +
            `total premium pool $${centsToDollars(run.totalPremiumPoolCents)}.`,
        );
        return ExitCode.ok;
      } catch (error) {
        // A refusal (month not begun, a run in progress) is the command's answer, not a crash.
        if (!(error instanceof AppError)) throw error;
        deps.err(error.message);
        return ExitCode.failed;
      }
    }
    case 'grant':
    case 'revoke': {
      const { email, role } = command;
      const userId = await deps.findUserId(email);
      if (!userId) return unknownEmail(deps, email);
      if (command.kind === 'grant') {
        await deps.roles.grant(userId, role);
        deps.out(`Granted ${role} to ${email}.`);
      } else {
        const removed = await deps.roles.revoke(userId, role);
        deps.out(
          removed
            ? `Revoked ${role} from ${email}.`
            : `${email} did not have ${role}; nothing changed.`,
        );
      }
      return ExitCode.ok;
    }
  }
}

function unknownEmail(deps: AdminDeps, email: string) {
  deps.err(`No account with email ${email}.`);
  return ExitCode.failed;
}

/** The database-backed dependencies of the command. */
export function adminDeps(database: Database, io: Pick<AdminDeps, 'out' | 'err'>): AdminDeps {
  const holders = createRoleHolders(database.db);
  return {
    ...io,
    roles: createRolesModule({ database }, {}),
    findUserId: holders.findUserId,
    listRoleHolders: holders.listRoleHolders,
    calculateRevenue: (month) => createRevenueRuns(database, systemClock).calculate(month, null),
  };
}

async function main(): Promise<number> {
  const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };
  const command = parseAdminArgs(process.argv.slice(2));
  if (command.kind === 'help' || command.kind === 'usage-error') {
    return runAdminCommand(command, {
      ...io,
      roles: null as never,
      findUserId: null as never,
      listRoleHolders: null as never,
      calculateRevenue: null as never,
    });
  }
  let env;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      return ExitCode.failed;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
    poolSize: 1,
  });
  try {
    await database.migrate();
    return await runAdminCommand(command, adminDeps(database, io));
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(ExitCode.failed);
    },
  );
}
