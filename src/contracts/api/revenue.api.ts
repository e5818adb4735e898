import {
  lastRevenueRun,
  revenueMonthList,
  revenueRunResult,
  statementQuery,
} from '../revenue.contract.ts';
import { defineRoute } from './define-route.ts';

export const revenueApi = {
  months: defineRoute({ method: 'GET', path: '/api/artist/revenue', response: revenueMonthList }),
  /** A CSV attachment for the artist's accounts, downloaded by URL (not through `api()`). */
  statement: defineRoute({
    method: 'GET',
    path: '/api/artist/revenue/statement',
    query: statementQuery,
    produces: 'text/csv',
  }),
  calculate: defineRoute({
    method: 'POST',
    path: '/api/admin/revenue/calculate',
    response: revenueRunResult,
  }),
  last: defineRoute({ method: 'GET', path: '/api/admin/revenue/last', response: lastRevenueRun }),
};
