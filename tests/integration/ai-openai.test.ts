// AI_PROVIDER=openai against a local server speaking OpenAI's HTTP API (tests/helpers/
// fake-openai.ts): the key goes as a Bearer token, answers become lyrics and stored covers, and
// every failure — a timeout, 429, 5xx, an answer that is not JSON, lacks its field or is no
// image — is 502 'Generation failed' with nothing stored, well within AI_TIMEOUT_MS.
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeBehaviour } from '../helpers/fake-openai.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const fake = await startFakeOpenAi();
// Short, so the failure cases are quick; long enough for a loaded machine's proper answer.
const TIMEOUT_MS = 1500;

describe.each(dbKinds)('AI generation with an OpenAI-compatible server on %s', (kind) => {
  const ctx = useTestApp(kind, {
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-canto-fake',
    OPENAI_CHAT_MODEL: 'fake-chat',
    OPENAI_IMAGE_MODEL: 'fake-image',
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
    AI_GENERATIONS_PER_HOUR: '1000',
  });
  let user: TestUser;
  beforeAll(async () => {
    user = await makeUser(ctx);
  });
  beforeEach(() => {
    fake.chat = 'ok';
    fake.images = 'ok';
    fake.requests.length = 0;
  });

  const generate = (type: 'lyrics' | 'cover-art', prompt = 'rainy streets') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/ai/generate',
      headers: user.headers,
      payload: { prompt, type },
    });
  const stored = async () => {
    const [row] = await rows<{ n: string }>(
      ctx,
      sql`select count(*)::text as n from ai_generations where user_id = ${user.userId}`,
    );
    return Number(row!.n);
  };

  it('asks /chat/completions with the chat model and the key, and keeps its lyrics', async () => {
    const res = await generate('lyrics', 'rainy streets');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'lyrics', text: fake.lyrics, imageUrl: null });
    const sent = fake.requests.find((r) => r.path === '/v1/chat/completions');
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-canto-fake',
    });
    expect(sent!.body).toMatchObject({ model: 'fake-chat' });
    const messages = sent!.body!.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'rainy streets' });
  });

  it.each(['ok', 'ok-url', 'ok-noisy'] as const)(
    'turns an image answer (%s) into a stored 1400 px picture served by Canto',
    async (behaviour) => {
      fake.images = behaviour;
      const res = await generate('cover-art');
      expect(res.statusCode, res.body).toBe(201);
      const { imageUrl } = res.json<{ imageUrl: string }>();
      // A PNG; a picture that compresses badly as one is a WebP.
      const format = behaviour === 'ok-noisy' ? 'webp' : 'png';
      expect(imageUrl).toMatch(new RegExp(`^/media/cover-art/.+\\.${format}$`));
      const asked = fake.requests.find((r) => r.path === '/v1/images/generations');
      expect(asked?.body).toMatchObject({ model: 'fake-image', n: 1 });
      if (behaviour === 'ok-url')
        expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(
          'GET /v1/files/image.png',
        );
      const image = await ctx.app.inject({ method: 'GET', url: imageUrl });
      expect(image.statusCode).toBe(200);
      // Small enough to be an upload's cover art, even for a picture that compresses badly.
      expect(image.rawPayload.length).toBeLessThan(5 * 1024 * 1024);
      expect(await sharp(image.rawPayload).metadata()).toMatchObject({
        format,
        width: 1400,
        height: 1400,
      });
    },
  );

  const failures: Array<[FakeBehaviour, string]> = [
    ['hang', 'timeout'],
    ['hang-body', 'timeout'],
    ['429', 'rate_limited'],
    ['500', 'upstream_error'],
    ['not-json', 'bad_answer'],
    ['missing-field', 'bad_answer'],
  ];
  describe.each(['lyrics', 'cover-art'] as const)('%s', (type) => {
    it.each(failures)(
      'answers 502 Generation failed when the server does %s',
      async (behaviour, reason) => {
        if (type === 'lyrics') fake.chat = behaviour;
        else fake.images = behaviour;
        const before = await stored();
        const started = Date.now();
        const res = await generate(type);
        const took = Date.now() - started;
        expect(res.statusCode, res.body).toBe(502);
        expect(res.json().error).toMatchObject({
          code: 'ai_generation_failed',
          message: 'Generation failed',
          details: { reason },
        });
        expect(await stored()).toBe(before);
        // Bounded by AI_TIMEOUT_MS, never a hang.
        expect(took).toBeLessThan(TIMEOUT_MS + 2000);
      },
    );
  });

  it('answers 502 when the image bytes are not an image', async () => {
    fake.images = 'not-image';
    const before = await stored();
    const res = await generate('cover-art');
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().error).toMatchObject({ details: { reason: 'bad_answer' } });
    expect(await stored()).toBe(before);
  });
});

describe('AI generation with an OpenAI-compatible server that needs no key (Ollama, vLLM)', () => {
  const ctx = useTestApp('pglite', {
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: fake.url,
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  it('sends no Authorization header', async () => {
    fake.chat = 'ok';
    fake.requests.length = 0;
    const user = await makeUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/ai/generate',
      headers: user.headers,
      payload: { prompt: 'anything', type: 'lyrics' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = fake.requests.find((r) => r.path === '/v1/chat/completions');
    expect(sent).toBeDefined();
    expect(sent!.authorization).toBeUndefined();
  });
});

describe('AI generation when the OpenAI-compatible server is down', () => {
  const ctx = useTestApp('pglite', {
    AI_PROVIDER: 'openai',
    // A port nothing listens on.
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  it('answers 502 Generation failed', async () => {
    const user = await makeUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/ai/generate',
      headers: user.headers,
      payload: { prompt: 'anything', type: 'lyrics' },
    });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().error).toMatchObject({
      message: 'Generation failed',
      details: { reason: 'unreachable' },
    });
  });
});

afterAll(() => fake.close());
