import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { Principal } from './access-policy.ts';
import { requireAal2IfEnrolled } from './require-aal2.ts';

const requestOf = (principal: Principal | null) => ({ principal }) as unknown as FastifyRequest;
const user = (aal: Principal['aal']): Principal => ({ userId: 'u1', sessionId: 's1', aal });
const enrolled = async () => true;
const notEnrolled = async () => false;

describe('requireAal2IfEnrolled', () => {
  it('refuses an aal1 session of a user with a verified factor: 403 auth_mfa_required', async () => {
    const error = await requireAal2IfEnrolled(requestOf(user('aal1')), enrolled).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'auth_mfa_required' });
  });

  it('lets an aal2 session through without asking about factors', async () => {
    let asked = false;
    await expect(
      requireAal2IfEnrolled(requestOf(user('aal2')), async () => ((asked = true), true)),
    ).resolves.toBeUndefined();
    expect(asked).toBe(false);
  });

  it('lets a user without a verified factor through at aal1', async () => {
    await expect(
      requireAal2IfEnrolled(requestOf(user('aal1')), notEnrolled),
    ).resolves.toBeUndefined();
  });

  it('refuses an anonymous request as unauthenticated', async () => {
    await expect(requireAal2IfEnrolled(requestOf(null), enrolled)).rejects.toMatchObject({
      code: 'auth_required',
    });
  });
});
