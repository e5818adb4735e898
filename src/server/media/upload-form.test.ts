import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from '../http/http-errors.ts';
import type { ReceivedImage } from './media-intake.ts';
import {
  uploadForm,
  withUpload,
  type IncomingUpload,
  type UploadedAudio,
  type UploadFormSpec,
} from './upload-form.ts';

// The upload forms' reading at the route's edge, through a real multipart parser: typed
// values in any order of parts, each check as its part arrives, and no temp file left.

const audioRules = { maxBytes: 64, messages: { tooLarge: 'Audio too big', invalid: 'Not audio' } };
const imageRules = { maxBytes: 32, messages: { tooLarge: 'Image too big', invalid: 'No image' } };
const limits = { files: 3, fields: 4, parts: 7, fieldSize: 100 };

const strict = uploadForm({
  text: z.strictObject({
    title: z.string().min(1, 'Title is required').max(10, 'Title too long').describe('a title'),
    note: z.string().max(5, 'Note too long').optional(),
  }),
  files: {
    audio: {
      kind: 'audio',
      rules: audioRules,
      declaredAudio: true,
      required: 'Audio is required',
      description: 'the audio',
    },
    image: { kind: 'image', rules: imageRules, description: 'an image' },
  },
  limits,
});

const lenient = uploadForm({
  text: z.object({ title: z.string().trim().max(10, 'Title too long').optional() }),
  lenientText: true,
  files: { image: { kind: 'image', rules: imageRules, description: 'an image' } },
  limits,
});

const WAV = Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(8)]);
const PNG = Buffer.from('\x89PNG not really', 'latin1');

type Part =
  { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

function body(parts: Part[]) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${'filename' in p ? `; filename="${p.filename}"` : ''}`;
    const type = 'filename' in p ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(Buffer.from(`--b\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push('value' in p ? Buffer.from(p.value) : p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from('--b--\r\n'));
  return Buffer.concat(chunks);
}

describe('upload forms', () => {
  let app: FastifyInstance;
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-form-'));
  /** What the last handler saw in its temp dir while it ran. */
  let tempsWhileRunning: string[] = [];
  let read = true;

  const summary = async <S extends UploadFormSpec>(upload: IncomingUpload<S>) => {
    if (!read) return { read: false };
    const { fields, files } = await upload.read();
    tempsWhileRunning = fs.readdirSync(tempDir);
    return {
      fields,
      files: Object.fromEntries(
        Object.entries(files as Record<string, UploadedAudio | ReceivedImage>).map(([name, f]) => [
          name,
          'bytes' in f ? { bytes: f.bytes.length, field: f.rules.field } : { ...f, rules: null },
        ]),
      ),
    };
  };

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandler(app);
    await app.register(multipart, { limits: strict.multipartLimits, throwFileSizeLimit: true });
    app.post('/strict', async (request) =>
      withUpload(request, strict, { tempDir }, async (upload) => {
        const values = await summary(upload);
        if ((values.fields as { note?: string } | undefined)?.note === 'fail')
          throw new Error('the service failed');
        return values;
      }),
    );
    app.post('/lenient', async (request) => withUpload(request, lenient, {}, summary));
    // A service that starts the read and fails before it has finished.
    app.post('/abandon', async (request) =>
      withUpload(request, strict, { tempDir }, async (upload) => {
        void upload.read().catch(() => {});
        throw new Error('the service gave up');
      }),
    );
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  const send = async (url: string, parts: Part[]) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: body(parts),
    });
    return { status: res.statusCode, json: res.json() };
  };
  const audio = (data = WAV, type = 'audio/wav'): Part => ({
    name: 'audio',
    filename: 'a.wav',
    type,
    data,
  });

  it('documents the form from its declaration: text from the schema, files, what is required', () => {
    expect(strict.doc.multipartBody()).toEqual({
      type: 'object',
      required: ['audio', 'title'],
      properties: {
        audio: { type: 'string', format: 'binary', description: 'the audio' },
        image: { type: 'string', format: 'binary', description: 'an image' },
        title: { type: 'string', minLength: 1, maxLength: 10, description: 'a title' },
        note: { type: 'string', maxLength: 5 },
      },
    });
    // A file may reach its limit + 1 byte in the parser: the intake sees the byte that breaks it.
    expect(strict.multipartLimits).toMatchObject({ fileSize: 65, files: 3, fieldSize: 100 });
  });

  it('reads typed fields and files whatever the order of the parts, the temp file gone after', async () => {
    const image: Part = { name: 'image', filename: 'i.png', data: PNG };
    const expected = {
      fields: { title: 'Song', note: 'n' },
      files: {
        audio: { path: expect.any(String), size: WAV.length, container: 'wav', filename: 'a.wav' },
        image: { bytes: PNG.length, field: 'image' },
      },
    };
    for (const parts of [
      [{ name: 'title', value: 'Song' }, { name: 'note', value: 'n' }, audio(), image],
      [image, audio(), { name: 'note', value: 'n' }, { name: 'title', value: 'Song' }],
    ]) {
      const res = await send('/strict', parts);
      expect(res).toMatchObject({ status: 200, json: expected });
      expect(tempsWhileRunning).toEqual([path.basename(res.json.files.audio.path)]);
      expect(fs.readdirSync(tempDir)).toEqual([]);
    }
  });

  it("refuses unknown and repeated fields of a strict form, each with its field's name", async () => {
    const refused = async (parts: Part[], message: string, field: string) =>
      expect(await send('/strict', [...parts, audio()])).toEqual({
        status: 400,
        json: { error: { code: 'validation_failed', message, details: { field } } },
      });
    await refused([{ name: 'owner', value: 'x' }], 'Unknown field "owner"', 'owner');
    await refused(
      [
        { name: 'title', value: 'A' },
        { name: 'title', value: 'B' },
      ],
      'The field "title" was sent more than once',
      'title',
    );
    await refused(
      [
        { name: 'title', value: 'A' },
        { name: 'extra', filename: 'x.bin', data: Buffer.from('x') },
      ],
      'Unexpected file field "extra"',
      'extra',
    );
    await refused(
      [{ name: 'title', value: 'A' }, audio()],
      'Unexpected file field "audio"',
      'audio',
    );
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('ignores unknown text fields of a lenient form and keeps the last of a repeated one', async () => {
    const res = await send('/lenient', [
      { name: 'title', value: 'First' },
      { name: 'anything', value: 'x' },
      { name: 'title', value: 'Last' },
    ]);
    expect(res).toEqual({ status: 200, json: { fields: { title: 'Last' }, files: {} } });
  });

  it('judges a value the parser cut short as too long, and an absent required one as empty', async () => {
    const cut = await send('/lenient', [{ name: 'title', value: ' '.repeat(150) }]);
    expect(cut).toMatchObject({ status: 400, json: { error: { message: 'Title too long' } } });
    const absent = await send('/strict', [audio()]);
    expect(absent).toMatchObject({
      status: 400,
      json: { error: { message: 'Title is required', details: { field: 'title' } } },
    });
  });

  it('checks a field as it arrives, before a later file is read', async () => {
    const res = await send('/strict', [{ name: 'note', value: 'far too long' }, audio()]);
    expect(res).toMatchObject({ status: 400, json: { error: { message: 'Note too long' } } });
    expect(tempsWhileRunning).toEqual([]);
  });

  it('treats an empty file input as no file, and then asks for a required one', async () => {
    const res = await send('/strict', [
      { name: 'title', value: 'Song' },
      { name: 'audio', filename: '', data: Buffer.alloc(0) },
      { name: 'image', filename: 'empty.png', data: Buffer.alloc(0) },
    ]);
    expect(res).toEqual({
      status: 400,
      json: {
        error: {
          code: 'validation_failed',
          message: 'Audio is required',
          details: { field: 'audio' },
        },
      },
    });
  });

  it('refuses audio by its declared type, its signature or its size, in its own words', async () => {
    const title = { name: 'title', value: 'Song' };
    expect(await send('/strict', [title, audio(WAV, 'text/plain')])).toMatchObject({
      status: 415,
      json: { error: { message: 'Not audio', details: { field: 'audio', reason: 'type' } } },
    });
    expect(
      await send('/strict', [title, audio(Buffer.from('<html>not audio</html>'))]),
    ).toMatchObject({
      status: 415,
      json: { error: { message: 'Not audio', details: { field: 'audio', reason: 'signature' } } },
    });
    expect(
      await send('/strict', [title, audio(Buffer.concat([WAV, Buffer.alloc(64)]))]),
    ).toMatchObject({
      status: 413,
      json: { error: { message: 'Audio too big', details: { field: 'audio', maxBytes: 64 } } },
    });
    expect(
      await send('/lenient', [{ name: 'image', filename: 'i.png', data: Buffer.alloc(40, 1) }]),
    ).toMatchObject({
      status: 413,
      json: { error: { message: 'Image too big', details: { field: 'image', maxBytes: 32 } } },
    });
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('removes the temp file when the service fails after reading, and reads nothing unless asked', async () => {
    const failed = await send('/strict', [
      { name: 'title', value: 'Song' },
      { name: 'note', value: 'fail' },
      audio(),
    ]);
    expect(failed.status).toBe(500);
    expect(tempsWhileRunning).toHaveLength(1);
    expect(fs.readdirSync(tempDir)).toEqual([]);
    read = false;
    try {
      tempsWhileRunning = [];
      expect(await send('/strict', [{ name: 'title', value: 'Song' }, audio()])).toEqual({
        status: 200,
        json: { read: false },
      });
      expect(fs.readdirSync(tempDir)).toEqual([]);
    } finally {
      read = true;
    }
    const abandoned = await send('/abandon', [{ name: 'title', value: 'Song' }, audio()]);
    expect(abandoned.status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });
});
