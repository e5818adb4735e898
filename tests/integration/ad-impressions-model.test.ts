import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  createAd,
  impressionRows,
  makeAdmin,
  postImpression,
  setActive,
  subscribe,
} from './ads-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

/*
 * Impressions are money (docs/decisions/0023): any sequence of asks, reports (of one's own
 * showings or another's), waits, deactivations and upgrades to premium gives exactly the
 * answers a small model of the rules gives, and the impressions written are exactly the ones
 * the model counted, each paying what its showing named. Against the real app, both databases.
 */

const DURATION_S = 5;
const CAP_MS = 600_000;

type Command =
  | { kind: 'wait'; ms: number }
  | { kind: 'ask'; who: number }
  | { kind: 'report'; who: number; showing: number }
  | { kind: 'toggle-ad' }
  | { kind: 'premium'; who: number };

// Weighted towards asking and reporting, the steps where money is decided.
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      ms: fc.integer({ min: 0, max: 7000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('ask' as const),
      who: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      who: fc.integer({ min: 0, max: 1 }),
      showing: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('toggle-ad' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('premium' as const),
      who: fc.integer({ min: 0, max: 1 }),
    }),
  },
);

describe.each(dbKinds)('the impression rules as a model, on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('answers and writes exactly what the model says, whatever the order', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 3, maxLength: 10 }), async (commands) => {
        run++;
        // Fresh people each run: the clock moves on, and a run's premium must not leak.
        const admin = await makeAdmin(ctx, `Model Admin ${run}`);
        const ad = await createAd(ctx, admin, {
          title: `Model ${run}`,
          duration: String(DURATION_S),
        });
        const listeners: TestUser[] = [
          await makeUser(ctx, 'listener', `Model A ${run}`),
          await makeUser(ctx, 'listener', `Model B ${run}`),
        ];
        const model = {
          active: true,
          premium: [false, false],
          lastShowing: [null, null] as Array<number | null>,
          showings: [] as Array<{ id: string; who: number; at: number; recorded: boolean }>,
        };
        try {
          for (const c of commands) {
            const now = ctx.clock.now().getTime();
            if (c.kind === 'wait') ctx.clock.advance(c.ms);
            else if (c.kind === 'toggle-ad') {
              model.active = !model.active;
              await setActive(ctx, admin, ad.id, model.active);
            } else if (c.kind === 'premium') {
              if (!model.premium[c.who]) await subscribe(ctx, listeners[c.who]!.userId);
              model.premium[c.who] = true;
            } else if (c.kind === 'ask') {
              const res = await ctx.app.inject({
                method: 'POST',
                url: '/api/ads/showings',
                headers: listeners[c.who]!.headers,
              });
              if (model.premium[c.who]) {
                expect(res.statusCode, res.body).toBe(403);
                continue;
              }
              expect(res.statusCode, res.body).toBe(200);
              const body = res.json<{ ad: { showing_id: string } | null }>();
              const last = model.lastShowing[c.who] ?? null;
              if (!model.active || (last !== null && now - last < CAP_MS)) {
                expect(body.ad).toBeNull();
              } else {
                expect(body.ad).not.toBeNull();
                model.lastShowing[c.who] = now;
                model.showings.push({
                  id: body.ad!.showing_id,
                  who: c.who,
                  at: now,
                  recorded: false,
                });
              }
            } else if (model.showings.length > 0) {
              const showing = model.showings[c.showing % model.showings.length]!;
              const res = await postImpression(ctx, listeners[c.who]!, {
                showing_id: showing.id,
              });
              const expected =
                showing.who !== c.who
                  ? 'ad_showing_not_found'
                  : showing.recorded
                    ? 'replay'
                    : !model.active
                      ? 'ad_inactive'
                      : model.premium[c.who]
                        ? 'ad_listener_premium'
                        : now - showing.at < DURATION_S * 1000
                          ? 'ad_showing_too_early'
                          : 'recorded';
              if (expected === 'recorded' || expected === 'replay') {
                expect(res.statusCode, res.body).toBe(200);
                expect(res.json<{ recorded: boolean }>().recorded).toBe(expected === 'recorded');
                showing.recorded = true;
              } else {
                expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
                expect(res.json<{ error: { code: string } }>().error.code).toBe(expected);
              }
            }
          }
          // What was written: one impression per counted showing, of this listener and ad.
          const ids = listeners.map((l) => l.userId);
          const written = (await impressionRows(ctx)).filter((r) => ids.includes(r.user_id!));
          expect(written.map((r) => r.showing_id).sort()).toEqual(
            model.showings
              .filter((s) => s.recorded)
              .map((s) => s.id)
              .sort(),
          );
          for (const r of written) {
            const showing = model.showings.find((s) => s.id === r.showing_id)!;
            expect(r).toMatchObject({ ad_id: ad.id, user_id: ids[showing.who] });
          }
          const showingCount = await rows<{ n: number }>(
            ctx,
            sql`select count(*)::int as n from ad_showings where ad_id = ${ad.id}`,
          );
          expect(Number(showingCount[0]!.n)).toBe(model.showings.length);
        } finally {
          if (model.active) await setActive(ctx, admin, ad.id, false);
        }
      }),
      { numRuns: 20 },
    );
  }, 240_000);
});
