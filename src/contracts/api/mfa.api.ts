import { z } from 'zod';
import { authSession, errorBody } from '../auth.contract.ts';
import {
  challenge,
  enrolFactorBody,
  enrolledFactor,
  factorList,
  factorParams,
  verifyFactorBody,
} from '../mfa.contract.ts';
import { defineRoute } from './define-route.ts';

// The error answers the API document lists for these routes (each has the errorBody shape).
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
  429: errorBody,
  501: errorBody,
};

export const mfaApi = {
  factors: defineRoute({
    method: 'GET',
    path: '/api/auth/factors',
    response: factorList,
    errors: { 401: errorBody },
  }),
  enrol: defineRoute({
    method: 'POST',
    path: '/api/auth/factors',
    body: enrolFactorBody,
    status: 201,
    response: enrolledFactor,
    errors,
  }),
  challenge: defineRoute({
    method: 'POST',
    path: '/api/auth/factors/:factorId/challenge',
    params: factorParams,
    status: 201,
    response: challenge,
    errors,
  }),
  verify: defineRoute({
    method: 'POST',
    path: '/api/auth/factors/:factorId/verify',
    params: factorParams,
    body: verifyFactorBody,
    response: authSession,
    errors,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/auth/factors/:factorId',
    params: factorParams,
    status: 204,
    response: z.null().describe('Removed'),
    errors,
  }),
};
