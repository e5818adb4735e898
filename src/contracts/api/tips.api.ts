import { createTipBody, tipCheckout, tipDto, tipParams } from '../tips.contract.ts';
import { defineRoute } from './define-route.ts';

export const tipsApi = {
  create: defineRoute({
    method: 'POST',
    path: '/api/tips',
    body: createTipBody,
    status: 201,
    response: tipCheckout,
  }),
  get: defineRoute({ method: 'GET', path: '/api/tips/:id', params: tipParams, response: tipDto }),
  confirmLocal: defineRoute({
    method: 'POST',
    path: '/api/tips/:id/confirm',
    params: tipParams,
    response: tipDto,
  }),
};
