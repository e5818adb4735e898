import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';

// PGlite has one connection, so real races need the PostgreSQL server.
describe.runIf(dbKinds.includes('postgres'))(
  'refresh rotation under concurrency on postgres',
  () => {
    const ctx = useTestApp('postgres');

    it('lets exactly one of 10 parallel refreshes with the same token win', async () => {
      const { res } = await signUp(ctx.app);
      const { refresh_token, user } = res.json();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token } }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 401)).toHaveLength(9);
      // One child token was issued; the others were refused, not minted.
      const rows = (await ctx.db.database.db.execute(
        sql`select count(*)::int as n from refresh_tokens rt join sessions s on s.id = rt.session_id where s.user_id = ${user.id}`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(rows.rows[0]!.n).toBe(2);
    });

    it('never issues two children for one token across many rounds', async () => {
      for (let round = 0; round < 5; round++) {
        const { res } = await signUp(ctx.app);
        const { refresh_token } = res.json();
        const results = await Promise.all(
          Array.from({ length: 4 }, () =>
            ctx.app.inject({
              method: 'POST',
              url: '/api/auth/refresh',
              payload: { refresh_token },
            }),
          ),
        );
        expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      }
    });
  },
);
