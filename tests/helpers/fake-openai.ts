// A local HTTP server speaking the parts of OpenAI's HTTP API that AI_PROVIDER=openai uses
// (POST /chat/completions, POST /images/generations, and the image URLs it hands out), so the
// provider is tested through real sockets with no network. Each endpoint's behaviour is set by
// the test: a proper answer, or the failures real servers give (slow, 429, 5xx, garbage).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export type FakeBehaviour =
  | 'ok'
  /** Images: answer with a URL on this server instead of b64_json. */
  | 'ok-url'
  /** Images: a 1024² picture of noise, as big as a photo's PNG gets. */
  | 'ok-noisy'
  /** Headers never come: the caller's timeout must end the wait. */
  | 'hang'
  /** Headers come, the body never ends. */
  | 'hang-body'
  | '429'
  | '500'
  /** 200 with a body that is not JSON. */
  | 'not-json'
  /** 200 JSON without the field the protocol promises. */
  | 'missing-field'
  /** 200 with an image whose bytes are not an image. */
  | 'not-image';

export type FakeOpenAiRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
};

export type FakeOpenAi = {
  /** The base URL to put in OPENAI_BASE_URL (with /v1, as OpenAI's). */
  url: string;
  requests: FakeOpenAiRequest[];
  chat: FakeBehaviour;
  images: FakeBehaviour;
  /** What the chat completion says. */
  lyrics: string;
  close(): Promise<void>;
};

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const image = await sharp({
    create: { width: 256, height: 256, channels: 3, background: { r: 20, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  const noise = Buffer.alloc(1024 * 1024 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2_654_435_761) >>> 24;
  const noisy = await sharp(noise, { raw: { width: 1024, height: 1024, channels: 3 } })
    .png()
    .toBuffer();
  const hanging = new Set<http.ServerResponse>();

  const fake: FakeOpenAi = {
    url: '',
    requests: [],
    chat: 'ok',
    images: 'ok',
    lyrics: 'Fake Title\n\n[Verse 1]\nA line from the fake server\n\n[Chorus]\nSing along',
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  /** The failures both endpoints share; true when one was answered. */
  function failure(res: http.ServerResponse, behaviour: FakeBehaviour): boolean {
    switch (behaviour) {
      case 'hang':
        hanging.add(res);
        return true;
      case 'hang-body':
        hanging.add(res);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"choices": [');
        return true;
      case '429':
        json(res, 429, { error: { message: 'Rate limit reached', type: 'requests' } });
        return true;
      case '500':
        json(res, 500, { error: { message: 'The server had an error', type: 'server_error' } });
        return true;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
        return true;
      default:
        return false;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      let body: Record<string, unknown> | undefined;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      fake.requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body,
      });

      if (req.method === 'POST' && path === '/v1/chat/completions') {
        if (failure(res, fake.chat)) return;
        if (fake.chat === 'missing-field') return json(res, 200, { id: 'chatcmpl-1', choices: [] });
        return json(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: body?.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: fake.lyrics },
              finish_reason: 'stop',
            },
          ],
        });
      }
      if (req.method === 'POST' && path === '/v1/images/generations') {
        if (failure(res, fake.images)) return;
        if (fake.images === 'missing-field') return json(res, 200, { created: 1, data: [{}] });
        if (fake.images === 'not-image')
          return json(res, 200, {
            created: 1,
            data: [{ b64_json: Buffer.from('this is not a picture').toString('base64') }],
          });
        if (fake.images === 'ok-noisy')
          return json(res, 200, { created: 1, data: [{ b64_json: noisy.toString('base64') }] });
        if (fake.images === 'ok-url')
          return json(res, 200, { created: 1, data: [{ url: `${fake.url}/files/image.png` }] });
        return json(res, 200, { created: 1, data: [{ b64_json: image.toString('base64') }] });
      }
      if (req.method === 'GET' && path === '/v1/files/image.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
        return res.end(image);
      }
      json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
