import { healthStatus } from '../system.contract.ts';
import { defineRoute } from './define-route.ts';

export const systemApi = {
  health: defineRoute({ method: 'GET', path: '/api/health', response: healthStatus }),
};
