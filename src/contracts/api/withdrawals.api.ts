import {
  adminWithdrawalDto,
  adminWithdrawalList,
  artistBalance,
  createWithdrawalBody,
  decideWithdrawalBody,
  withdrawalDto,
  withdrawalIdParams,
  withdrawalList,
} from '../withdrawals.contract.ts';
import { defineRoute } from './define-route.ts';

export const withdrawalsApi = {
  balance: defineRoute({ method: 'GET', path: '/api/artist/balance', response: artistBalance }),
  mine: defineRoute({ method: 'GET', path: '/api/artist/withdrawals', response: withdrawalList }),
  request: defineRoute({
    method: 'POST',
    path: '/api/artist/withdrawals',
    body: createWithdrawalBody,
    status: 201,
    response: withdrawalDto,
  }),
  all: defineRoute({
    method: 'GET',
    path: '/api/admin/withdrawals',
    response: adminWithdrawalList,
  }),
  approve: defineRoute({
    method: 'POST',
    path: '/api/admin/withdrawals/:id/approve',
    params: withdrawalIdParams,
    body: decideWithdrawalBody,
    response: adminWithdrawalDto,
  }),
  reject: defineRoute({
    method: 'POST',
    path: '/api/admin/withdrawals/:id/reject',
    params: withdrawalIdParams,
    body: decideWithdrawalBody,
    response: adminWithdrawalDto,
  }),
};
