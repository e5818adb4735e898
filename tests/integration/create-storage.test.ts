import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { startS3rver } from '../helpers/s3rver.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/server/storage/create-storage.ts';
import { newKey } from '../../src/server/storage/storage.ts';

// STORAGE selects the adapter, and only STORAGE=s3 imports the AWS SDK (docs/decisions/0009);
// each adapter's behaviour is storage.contract.test.ts's.
describe('createStorage', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let directory: string;
  let endpoint: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    ({ endpoint, directory } = s3);
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const s3Env = () => ({
    storage: 's3' as const,
    dataDir: directory,
    mediaMemoryCacheMb: 0,
    s3: {
      endpoint,
      region: 'us-east-1',
      bucket: 'canto',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
  });

  it('puts, describes, reads and deletes through the S3 adapter', async () => {
    const storage = await createStorage(s3Env());
    expect(storage.kind).toBe('s3');
    expect(storage.presignedUrl).toBeTypeOf('function');
    try {
      const key = newKey('mp3');
      const data = Buffer.from('ID3 not really audio, but bytes all the same');
      const options = { contentType: 'audio/mpeg', maxBytes: 1024 };
      expect(await storage.put('music', key, Readable.from([data]), options)).toEqual({
        key,
        size: data.length,
      });
      expect((await storage.stat('music', key))?.size).toBe(data.length);
      expect(await storage.exists('music', key)).toBe(true);
      expect(await buffer(await storage.read('music', key, { start: 0, end: 2 }))).toEqual(
        data.subarray(0, 3),
      );
      await storage.delete('music', key);
      expect(await storage.exists('music', key)).toBe(false);
    } finally {
      await storage.close();
    }
  });

  it('keeps STORAGE=local on the local disk', async () => {
    const storage = await createStorage({ ...s3Env(), storage: 'local' });
    expect(storage.kind).toBe('local');
    expect(storage.presignedUrl).toBeUndefined();
  });
});
