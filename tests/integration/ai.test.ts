// The AI Music Creator's routes (spec §2, §5, §7 generate-ai-content; docs/decisions/0031) with
// the offline provider: lyrics and covers for signed-in users only, bad prompts refused with
// nothing stored, each user's hourly budget, and each user's own history, newest first.
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { signIn, signUp } from './auth-helpers.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

type Generation = {
  id: string;
  type: 'lyrics' | 'cover-art';
  prompt: string;
  seed: number;
  text: string | null;
  imageUrl: string | null;
  created_at: string;
};

describe.each(dbKinds)('AI generation with the local provider on %s', (kind) => {
  const ctx = useTestApp(kind, {
    AI_GENERATIONS_PER_HOUR: '4',
    // The reconciler test below: any file no row names is an orphan at once.
    MEDIA_SWEEP_AGE_SECONDS: '0',
  });
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let carolEmail: string;
  beforeAll(async () => {
    alice = await makeUser(ctx, 'listener', 'Alice');
    bob = await makeUser(ctx, 'listener', 'Bob');
    const { res, payload } = await signUp(ctx.app, { display_name: 'Carol' });
    const body = res.json<{ user: { id: string }; access_token: string }>();
    carolEmail = payload.email;
    carol = {
      userId: body.user.id,
      token: body.access_token,
      displayName: 'Carol',
      headers: { authorization: `Bearer ${body.access_token}` },
    };
  });

  const generate = (user: TestUser | null, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/ai/generate',
      headers: user ? user.headers : {},
      payload: payload as object,
    });
  const history = async (user: TestUser) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/ai/generations',
      headers: user.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ generations: Generation[] }>().generations;
  };
  /** Everything a refused request could have written. */
  const state = async () => {
    const [row] = await rows<{ generations: string; limits: string }>(
      ctx,
      sql`select (select count(*) from ai_generations)::text as generations,
                 (select count(*) || ':' || coalesce(sum(hits), 0) from rate_limits
                   where key like 'ai-generate:%')::text as limits`,
    );
    return row!;
  };

  it('refuses callers who are not signed in', async () => {
    const before = await state();
    const res = await generate(null, { prompt: 'ocean', type: 'lyrics' });
    expect(res.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ai/generations' })).statusCode).toBe(
      401,
    );
    expect(await state()).toEqual(before);
  });

  it.each([
    ['an empty prompt', { prompt: '', type: 'lyrics' }, 'Prompt required'],
    ['a blank prompt', { prompt: '  \n\t ', type: 'cover-art' }, 'Prompt required'],
    ['no prompt', { type: 'lyrics' }, 'Prompt required'],
    ['a prompt of 1001 characters', { prompt: 'a'.repeat(1001), type: 'lyrics' }, 'at most 1000'],
    ['a 10 kB prompt', { prompt: 'ocean '.repeat(1700), type: 'cover-art' }, 'at most 1000'],
    ['a NUL in the prompt', { prompt: 'ocean\u0000night', type: 'lyrics' }, 'not allowed'],
    ['an unknown type', { prompt: 'ocean', type: 'video' }, ''],
    ['a negative seed', { prompt: 'ocean', type: 'lyrics', seed: -1 }, ''],
    ['a fractional seed', { prompt: 'ocean', type: 'lyrics', seed: 1.5 }, ''],
  ])('answers 400 to %s and stores nothing', async (_name, payload, message) => {
    const before = await state();
    const res = await generate(alice, payload);
    expect(res.statusCode, res.body).toBe(400);
    const { error } = res.json<{ error: { code: string; message: string } }>();
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(message);
    expect(await state()).toEqual(before);
  });

  it('writes lyrics, the same for the same prompt and seed', async () => {
    const res = await generate(alice, {
      prompt: 'Lonely highway at midnight',
      type: 'lyrics',
      seed: 7,
    });
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json<Generation>();
    expect(first).toMatchObject({
      type: 'lyrics',
      seed: 7,
      imageUrl: null,
      prompt: 'Lonely highway at midnight',
    });
    expect(first.text).toMatch(/\[Verse 1\]\n[\s\S]+\[Chorus\]\n[\s\S]+\[Verse 2\]/);
    expect(first.text!.toLowerCase()).toContain('highway');

    ctx.clock.advance(1000);
    const again = await generate(alice, {
      prompt: 'Lonely highway at midnight',
      type: 'lyrics',
      seed: 7,
    });
    expect(again.json<Generation>().text).toBe(first.text);
    expect(again.json<Generation>().id).not.toBe(first.id);
  });

  it('draws a 1400 px PNG cover, stored and served under /media', async () => {
    ctx.clock.advance(1000);
    const res = await generate(alice, { prompt: 'Neon city lights', type: 'cover-art' });
    expect(res.statusCode, res.body).toBe(201);
    const cover = res.json<Generation>();
    expect(cover.text).toBeNull();
    expect(cover.seed).toBeGreaterThanOrEqual(0);
    expect(cover.imageUrl).toMatch(new RegExp(`^/media/cover-art/${alice.userId}/\\d+\\.png$`));
    const image = await ctx.app.inject({ method: 'GET', url: cover.imageUrl! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1400, height: 1400 });
  });

  it('lists each user’s own generations, newest first', async () => {
    const mine = await history(alice);
    expect(mine.map((g) => g.type)).toEqual(['cover-art', 'lyrics', 'lyrics']);
    const times = mine.map((g) => Date.parse(g.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await history(bob)).toEqual([]);

    ctx.clock.advance(1000);
    const res = await generate(bob, { prompt: 'Bob’s blues', type: 'lyrics' });
    expect(res.statusCode, res.body).toBe(201);
    const bobs = await history(bob);
    expect(bobs.map((g) => g.prompt)).toEqual(['Bob’s blues']);
    expect((await history(alice)).map((g) => g.id)).toEqual(mine.map((g) => g.id));
  });

  it('keeps each user to AI_GENERATIONS_PER_HOUR, storing nothing past it', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await generate(carol, { prompt: `song ${i}`, type: 'lyrics' });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await state();
    const refused = await generate(carol, { prompt: 'one too many', type: 'lyrics' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('AI generations'),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await state()).generations).toBe(before.generations);
    expect(await history(carol)).toHaveLength(4);
    // Another user's budget is their own.
    expect((await generate(bob, { prompt: 'still fine', type: 'lyrics' })).statusCode).toBe(201);
    // An hour later (in a new session: the old access token has expired), Carol may again.
    ctx.clock.advance(60 * 60 * 1000 + 1000);
    const token = await signIn(ctx.app, carolEmail, 'secret-pass');
    const later = { ...carol, headers: { authorization: `Bearer ${token}` } };
    expect((await generate(later, { prompt: 'next hour', type: 'lyrics' })).statusCode).toBe(201);
  });

  // Last: the clock is an hour on by now, so every stored file is old enough to be swept.
  it('has its covers kept by the media reconciler while their row lives, and swept after', async () => {
    const [cover] = await rows<{ id: string; image_url: string }>(
      ctx,
      sql`select id, image_url from ai_generations where user_id = ${alice.userId} and kind = 'cover-art'`,
    );
    const key = cover!.image_url.replace('/media/cover-art/', '');
    const served = () => ctx.app.inject({ method: 'GET', url: cover!.image_url });
    expect((await ctx.reconciler.runOnce()).orphans).toBe(0);
    expect((await served()).statusCode).toBe(200);
    expect(await ctx.storage.exists('cover-art', key)).toBe(true);
    await ctx.db.database.db.execute(sql`delete from ai_generations where id = ${cover!.id}`);
    expect((await ctx.reconciler.runOnce()).orphans).toBe(1);
    expect(await ctx.storage.exists('cover-art', key)).toBe(false);
    // A cover that is gone gets the placeholder, not its bytes.
    expect((await served()).statusCode).not.toBe(200);
  });
});
