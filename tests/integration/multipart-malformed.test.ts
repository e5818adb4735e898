import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import {
  captureLog,
  connect,
  eventually,
  exchange,
  LOG_ERROR,
  type RawResponse,
} from '../helpers/raw-http.ts';
import { makeUser, makeWav, rows, storedFiles, type TestUser } from './songs-helpers.ts';

// A malformed multipart body (docs/decisions/0006, "Bad bytes"), or HTTP that Node's own parser
// refuses, is a 4xx in the API's error shape, never a 500 and never an ERROR in the log; nothing is
// stored. Over a real socket: app.inject cannot cut a body short, hang up, or break HTTP framing.

const B = 'canto-boundary-1';

describe.each(dbKinds)('malformed multipart and client errors on %s', (kind) => {
  const log = captureLog();
  const ctx = useTestApp(kind, {}, { logger: log.logger });
  let port: number;
  let artist: TestUser;
  let wav: Buffer;
  let logMark = 0;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Wire Artist');
    wav = makeWav(1);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    logMark = log.lines.length;
  });

  const songCount = async () =>
    Number((await rows<{ n: number }>(ctx, sql`select count(*)::int as n from songs`))[0]!.n);
  const errorsLogged = () => log.lines.slice(logMark).filter((l) => l.level >= LOG_ERROR);
  /** Waits until the route has dealt with a request whose body was cut off, however it did. */
  const cutOffHandled = () =>
    eventually(() =>
      log.lines
        .slice(logMark)
        .some((l) => l.level >= LOG_ERROR || /client went away/.test(String(l.msg))),
    );

  /** The request head of an upload; `contentType` and `length` as given, verbatim. */
  const head = (contentType: string, length: number | null, extra = '') =>
    `POST /api/songs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${artist.token}\r\n` +
    `Content-Type: ${contentType}\r\n` +
    (length === null ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
    `Connection: close\r\n${extra}\r\n`;

  const filePart = (boundary: string, data: Buffer, name = 'file') =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.wav"\r\n` +
          `Content-Type: audio/wav\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ]);

  /** Sends a whole request (head + body with a matching Content-Length). */
  const send = (contentType: string, body: Buffer) =>
    exchange(port, [head(contentType, body.length), body]);

  /**
   * The answer is `status` in the API's shape, nothing was stored and nothing logged as an
   * error — once `settled` has resolved, for a request whose route may still be cleaning up
   * after the answer went out.
   */
  async function expectRefused(
    run: () => Promise<{ response: RawResponse | null }>,
    status: number,
    error: { code: string; message?: string },
    settled: () => Promise<unknown> = async () => {},
  ) {
    const before = { songs: await songCount(), files: storedFiles(ctx.env.dataDir) };
    const { response } = await run();
    expect(response, 'no HTTP response came back').not.toBeNull();
    expect(response!.status, response!.body).toBe(status);
    expect(response!.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(response!.body);
    expect(body).toEqual({ error: expect.objectContaining(error) });
    expect(Object.keys(body.error).sort()).toEqual(
      body.error.details ? ['code', 'details', 'message'] : ['code', 'message'],
    );
    await settled();
    expect(await songCount()).toBe(before.songs);
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
    expect(errorsLogged()).toEqual([]);
    return body;
  }

  const malformed = { code: 'validation_failed', message: 'Malformed multipart body' };

  it('still stores a well-formed upload sent the same way (the raw requests below are valid HTTP)', async () => {
    const body = Buffer.concat([filePart(B, wav), Buffer.from(`--${B}--\r\n`)]);
    const { response } = await send(`multipart/form-data; boundary=${B}`, body);
    expect(response?.status, response?.body).toBe(201);
    expect(JSON.parse(response!.body)).toMatchObject({ title: 'a', duration: 1 });
    expect(errorsLogged()).toEqual([]);
  });

  it('refuses a multipart body without a boundary: 400', async () => {
    const body = Buffer.concat([filePart(B, wav), Buffer.from(`--${B}--\r\n`)]);
    await expectRefused(() => send('multipart/form-data', body), 400, malformed);
  });

  it('refuses a body whose boundary is not the one its Content-Type names: 400', async () => {
    const body = Buffer.concat([
      filePart('other-boundary', wav),
      Buffer.from(`--other-boundary--\r\n`),
    ]);
    await expectRefused(() => send(`multipart/form-data; boundary=${B}`, body), 400, malformed);
  });

  it('refuses a body that ends inside a part header: 400', async () => {
    const body = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="fi`);
    await expectRefused(() => send(`multipart/form-data; boundary=${B}`, body), 400, malformed);
  });

  it('refuses a body that ends inside the file, before the closing boundary: 400, temp file gone', async () => {
    const body = filePart(B, Buffer.concat([wav, wav])).subarray(0, 200 + wav.length);
    await expectRefused(() => send(`multipart/form-data; boundary=${B}`, body), 400, malformed);
  });

  it('refuses a body whose last part is whole but the closing boundary never comes: 400', async () => {
    const body = filePart(B, wav);
    await expectRefused(() => send(`multipart/form-data; boundary=${B}`, body), 400, malformed);
  });

  it('refuses more parts than allowed (413), more files than allowed (413) and more fields (413)', async () => {
    const field = (name: string) =>
      `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`;
    const sevenParts = Buffer.from(
      ['title', 'genre', 'a', 'b'].map(field).join('') +
        [1, 2, 3].map((i) => field(`c${i}`)).join('') +
        `--${B}--\r\n`,
    );
    const ct = `multipart/form-data; boundary=${B}`;
    const tooMany = await expectRefused(() => send(ct, sevenParts), 413, {
      code: 'payload_too_large',
    });
    expect(tooMany.error.message).toMatch(/^Too many (parts|fields) in the multipart body$/);
    const threeFiles = Buffer.concat([
      filePart(B, wav),
      filePart(B, wav, 'cover'),
      filePart(B, wav),
      Buffer.from(`--${B}--\r\n`),
    ]);
    await expectRefused(() => send(ct, threeFiles), 413, {
      code: 'payload_too_large',
      message: 'Too many files in the multipart body',
    });
  });

  it('refuses a part whose name comes after more header lines than a part may have: 400', async () => {
    const junk = Array.from({ length: 30 }, (_, i) => `X-Junk-${i}: ${i}\r\n`).join('');
    const body = Buffer.concat([
      Buffer.from(`--${B}\r\n${junk}`),
      filePart(B, wav).subarray(`--${B}\r\n`.length),
      Buffer.from(`--${B}--\r\n`),
    ]);
    await expectRefused(() => send(`multipart/form-data; boundary=${B}`, body), 400, {
      code: 'validation_failed',
    });
  });

  it('drops an upload whose client hangs up mid-body: no ERROR in the log, no row, no temp file', async () => {
    const before = { songs: await songCount(), files: storedFiles(ctx.env.dataDir) };
    const partHead = filePart(B, Buffer.alloc(0)).subarray(0, -2);
    // The body says 2 MB; the client sends the part head and 300 kB of the WAV, then leaves.
    const client = connect(port, { timeoutMs: 10_000 });
    client.write(head(`multipart/form-data; boundary=${B}`, 2_000_000));
    client.write(partHead);
    client.write(makeWav(20).subarray(0, 300_000));
    // Hang up only once the server is writing the audio to its temp file.
    expect(
      await eventually(() => storedFiles(ctx.env.dataDir).some((f) => f.startsWith('tmp/'))),
    ).toBe(true);
    client.hangUp();
    expect(
      await eventually(
        () => !storedFiles(ctx.env.dataDir).some((f) => f.startsWith('tmp/')),
        10_000,
      ),
      'the temp file stayed behind',
    ).toBe(true);
    expect(await cutOffHandled()).toBe(true);
    expect(errorsLogged()).toEqual([]);
    expect(await songCount()).toBe(before.songs);
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
  });

  describe("HTTP that Node's parser refuses (its clientError), in the API's shape", () => {
    it('answers a request line that is not HTTP with 400', async () => {
      await expectRefused(() => exchange(port, ['GARBAGE\r\n\r\n']), 400, {
        code: 'validation_failed',
        message: 'Malformed HTTP request',
      });
    });

    it('answers a header holding a NUL byte with 400', async () => {
      await expectRefused(
        () => exchange(port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Name: a\0b\r\n\r\n']),
        400,
        { code: 'validation_failed', message: 'Malformed HTTP request' },
      );
    });

    it('answers headers over the size limit with 431', async () => {
      const huge = `X-Fill: ${'a'.repeat(20_000)}\r\n`;
      await expectRefused(
        () => exchange(port, [`GET /api/health HTTP/1.1\r\nHost: x\r\n${huge}\r\n`]),
        431,
        { code: 'validation_failed', message: 'Request headers are too large' },
      );
    });

    it('answers an upload whose chunked framing breaks mid-body with 400, storing nothing', async () => {
      const start = Buffer.concat([filePart(B, Buffer.alloc(0)).subarray(0, -2), wav]);
      await expectRefused(
        () =>
          exchange(port, [
            head(`multipart/form-data; boundary=${B}`, null),
            `${start.length.toString(16)}\r\n`,
            start,
            '\r\nzz-not-a-chunk-size\r\n',
          ]),
        400,
        { code: 'validation_failed' },
        // The request itself was cut off too: the route saw its body end early (not an error)
        // and removes the temp file it may have begun, which can happen after the answer.
        async () => {
          expect(await cutOffHandled()).toBe(true);
          expect(
            await eventually(() => !storedFiles(ctx.env.dataDir).some((f) => f.startsWith('tmp/'))),
            'the temp file stayed behind',
          ).toBe(true);
        },
      );
    });

    it('finishes a JSON request whose framing breaks while its access is checked (no handler left waiting)', async () => {
      const patch =
        `PATCH /api/songs/${crypto.randomUUID()} HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer ${artist.token}\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n`;
      await expectRefused(() => exchange(port, [patch, '5\r\n{"tit\r\nzz\r\n']), 400, {
        code: 'validation_failed',
        message: 'Malformed HTTP request',
      });
      // Before the preParsing check, the body parser waited for a body that could never end.
      expect(await cutOffHandled()).toBe(true);
      expect(errorsLogged()).toEqual([]);
    });
  });
});
