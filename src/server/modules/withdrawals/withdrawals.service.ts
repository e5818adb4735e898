import crypto from 'node:crypto';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  checkPaymentDetails,
  dollarsToCents,
  maskPaymentDetails,
  withdrawalLimits,
  withdrawalNotices,
  withdrawalRuleMessages,
  type WithdrawalStatus,
} from '../../../core/validation/withdrawal.rules.ts';
import type {
  AdminWithdrawalDto,
  ArtistBalance,
  CreateWithdrawalBody,
  WithdrawalDto,
} from '../../../contracts/withdrawals.contract.ts';
import type { Db } from '../../db/client.ts';
import type { Log } from '../../log.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type {
  AdminWithdrawalRow,
  WithdrawalRow,
  WithdrawalsRepository,
} from './withdrawals.repository.ts';

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;

/**
 * How an approved request is paid. Without one (or when `handles` says no) the admin has paid
 * outside Canto and Approve records it: pending → completed. A provider payout instead goes
 * pending → processing on approval (still counted against the balance), `send` runs after
 * that commits, and the provider's answer arrives through `settle`: processing → completed,
 * or → rejected (the amount is available again).
 */
export type WithdrawalPayouts = {
  handles(withdrawal: WithdrawalRow): boolean;
  send(withdrawal: WithdrawalRow): Promise<void>;
};

/** The answer to a submit; `replayed` when it is a retry's stored first answer. */
export type SubmitAnswer = { status: number; body: WithdrawalDto; replayed: boolean };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toWithdrawalDto(row: WithdrawalRow): WithdrawalDto {
  return {
    id: row.id,
    amount_cents: Number(row.amountCents),
    status: row.status,
    payment_method: row.paymentMethod,
    payment_details_masked: row.paymentDetailsMasked,
    requested_at: iso(row.requestedAt)!,
    processed_at: iso(row.processedAt),
    notes: row.notes,
  };
}

function toAdminDto(row: AdminWithdrawalRow): AdminWithdrawalDto {
  return {
    ...toWithdrawalDto(row),
    artist_id: row.artistId,
    artist_name: row.artistName,
    processed_by: row.processedBy,
  };
}

const notFound = () => new AppError(ErrorCode.notFound, withdrawalRuleMessages.notFound);
const notPending = () =>
  new AppError(ErrorCode.withdrawalNotPending, withdrawalRuleMessages.notPending);
const insufficient = (availableCents: bigint) =>
  new AppError(ErrorCode.insufficientBalance, withdrawalRuleMessages.insufficient(availableCents), {
    available_cents: Number(availableCents),
  });

// Visible ASCII only: a header value the key is compared by, byte for byte.
const KEY_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Balances, requests and their decisions (docs/decisions/0029). Every change that moves a
 * balance locks the artist's account row first and re-reads the balance under that lock,
 * so parallel requests of one artist are judged one after the other and never overdraw.
 */
export function createWithdrawalsService({
  repository,
  notifications,
  box,
  clock,
  log,
  payouts,
}: {
  repository: WithdrawalsRepository;
  notifications: Pick<NotificationsModule, 'notify'>;
  box: SecretBox;
  clock: Clock;
  log: Log;
  payouts?: WithdrawalPayouts | undefined;
}) {
  async function balanceCents(artistId: string, tx?: Db) {
    const parts = await repository.balanceParts(artistId, tx);
    const balance = parts.revenue - parts.paid;
    return { balance, pending: parts.pending, available: balance - parts.pending };
  }

  /** A decision by an admin, from pending only, under the artist's lock. */
  async function decide(
    id: string,
    adminId: string,
    decision: 'approve' | 'reject',
    notes: string | null,
  ): Promise<AdminWithdrawalDto> {
    const found = await repository.find(id);
    if (!found) throw notFound();
    if (found.artistId === adminId)
      throw new AppError(ErrorCode.forbidden, withdrawalRuleMessages.ownRequest);
    let handedToProvider = false;
    const decided = await repository.transaction(async (tx) => {
      await repository.lockArtist(tx, found.artistId);
      const row = await repository.find(id, tx);
      if (!row) throw notFound();
      if (row.status !== 'pending') throw notPending();
      let status: WithdrawalStatus = 'rejected';
      if (decision === 'approve') {
        // Re-checked under the lock: revenue may have been recalculated since the request.
        const { balance } = await balanceCents(row.artistId, tx);
        if (balance < row.amountCents) throw insufficient(balance);
        handedToProvider = payouts?.handles(row) ?? false;
        status = handedToProvider ? 'processing' : 'completed';
      }
      const now = clock.now();
      const changed = await repository.changeStatus(tx, id, ['pending'], {
        status,
        processedAt: status === 'processing' ? null : now,
        processedBy: adminId,
        notes,
      });
      if (!changed) throw notPending();
      if (status !== 'processing') await notifyOutcome(tx, row, status, notes);
      return (await repository.find(id, tx))!;
    });
    if (handedToProvider && payouts) {
      // The payout's own result (or its failure) comes back through settle().
      await payouts.send(decided).catch((error: unknown) => {
        log.error({ err: error, withdrawalId: id }, 'withdrawal payout could not be sent');
      });
    }
    return toAdminDto(decided);
  }

  async function notifyOutcome(
    tx: Db,
    row: WithdrawalRow,
    status: WithdrawalStatus,
    notes: string | null,
  ) {
    const notice =
      status === 'completed'
        ? withdrawalNotices.completed(row.amountCents, notes)
        : withdrawalNotices.rejected(row.amountCents, notes);
    await notifications.notify(
      {
        userId: row.artistId,
        type: status === 'completed' ? 'withdrawal_completed' : 'withdrawal_rejected',
        ...notice,
      },
      tx,
    );
  }

  return {
    async balance(artistId: string): Promise<ArtistBalance> {
      const [cents, account] = await Promise.all([
        balanceCents(artistId),
        repository.account(artistId),
      ]);
      return {
        balance: Number(cents.balance),
        available: Number(cents.available),
        pending: Number(cents.pending),
        payout:
          account?.paymentMethod && account.paymentDetailsMasked
            ? {
                payment_method: account.paymentMethod,
                payment_details_masked: account.paymentDetailsMasked,
              }
            : null,
      };
    },

    async mine(artistId: string): Promise<WithdrawalDto[]> {
      return (await repository.mine(artistId)).map(toWithdrawalDto);
    },

    async all(): Promise<AdminWithdrawalDto[]> {
      return (await repository.all()).map(toAdminDto);
    },

    /**
     * A request: the amount must be at least $10 and at most what is available, judged under
     * the artist's lock. With an Idempotency-Key, a retry of the same request answers what the
     * first got; the same key with another request is refused.
     */
    async request(
      artistId: string,
      body: CreateWithdrawalBody,
      idempotencyKey: string | undefined,
    ): Promise<SubmitAnswer> {
      if (
        idempotencyKey !== undefined &&
        (idempotencyKey.length > withdrawalLimits.idempotencyKey ||
          !KEY_PATTERN.test(idempotencyKey))
      )
        throw new AppError(ErrorCode.validation, withdrawalRuleMessages.keyInvalid);
      // The route's schema has checked both; these are their normalized forms.
      const cents = dollarsToCents(body.amount);
      const checked = checkPaymentDetails(body.payment_method, body.payment_details);
      if (cents === null || !checked.ok)
        throw new AppError(ErrorCode.validation, withdrawalRuleMessages.amountCents);
      const canonical = JSON.stringify({
        amount_cents: cents,
        payment_method: body.payment_method,
        payment_details: checked.details,
      });
      const requestHash = crypto.createHash('sha256').update(canonical).digest('hex');

      return repository.transaction(async (tx) => {
        await repository.lockArtist(tx, artistId);
        if (idempotencyKey !== undefined) {
          const earlier = await repository.findKey(tx, artistId, idempotencyKey);
          if (earlier) {
            if (earlier.requestHash !== requestHash)
              throw new AppError(ErrorCode.idempotencyKeyReused, withdrawalRuleMessages.keyReused);
            return {
              status: earlier.statusCode,
              body: JSON.parse(earlier.response) as WithdrawalDto,
              replayed: true,
            };
          }
        }
        const { available } = await balanceCents(artistId, tx);
        if (BigInt(cents) > available) throw insufficient(available > 0n ? available : 0n);

        const now = clock.now();
        const sealed = box.seal(JSON.stringify(checked.details));
        const masked = maskPaymentDetails(body.payment_method, checked.details);
        const made = await repository.insert(tx, {
          artistId,
          amountCents: BigInt(cents),
          paymentMethod: body.payment_method,
          paymentDetailsEncrypted: sealed,
          paymentDetailsMasked: masked,
          requestedAt: now,
        });
        await repository.savePayout(tx, artistId, {
          paymentMethod: body.payment_method,
          paymentDetailsEncrypted: sealed,
          paymentDetailsMasked: masked,
          updatedAt: now,
        });
        const answer = toWithdrawalDto(made);
        if (idempotencyKey !== undefined)
          await repository.saveKey(tx, {
            artistId,
            key: idempotencyKey,
            requestHash,
            withdrawalId: made.id,
            statusCode: 201,
            response: JSON.stringify(answer),
          });
        return { status: 201, body: answer, replayed: false };
      });
    },

    approve(id: string, adminId: string, notes?: string): Promise<AdminWithdrawalDto> {
      return decide(id, adminId, 'approve', notes ?? null);
    },

    reject(id: string, adminId: string, notes?: string): Promise<AdminWithdrawalDto> {
      return decide(id, adminId, 'reject', notes ?? null);
    },

    /**
     * A provider payout's result: processing → completed (paid) or rejected (failed, the
     * amount available again), once; false when the request is not processing (a repeated
     * or late webhook changes nothing).
     */
    async settle(id: string, outcome: 'paid' | 'failed', notes?: string): Promise<boolean> {
      const found = await repository.find(id);
      if (!found) return false;
      return repository.transaction(async (tx) => {
        await repository.lockArtist(tx, found.artistId);
        const row = await repository.find(id, tx);
        if (!row || row.status !== 'processing') return false;
        const status = outcome === 'paid' ? 'completed' : 'rejected';
        const kept = notes ?? row.notes;
        const changed = await repository.changeStatus(tx, id, ['processing'], {
          status,
          processedAt: clock.now(),
          processedBy: row.processedBy,
          notes: kept,
        });
        if (changed) await notifyOutcome(tx, row, status, kept);
        return changed;
      });
    },

    /** The sealed payment details of a request, for a payout that needs them. */
    paymentDetailsOf(row: WithdrawalRow): Record<string, string | null> {
      return JSON.parse(box.open(row.paymentDetailsEncrypted)) as Record<string, string | null>;
    },
  };
}
