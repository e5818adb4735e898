import { healthStatus, readiness } from '../system.contract.ts';
import { defineRoute } from './define-route.ts';

export const systemApi = {
  health: defineRoute({ method: 'GET', path: '/api/health', response: healthStatus }),
  ready: defineRoute({
    method: 'GET',
    path: '/api/health/ready',
    response: readiness,
    errors: { 503: readiness },
  }),
};
