import path from 'node:path';
import type { Env } from '../env.ts';
import type { CrashPoint } from './crash-point.ts';
import { createLocalStorage } from './local-storage.ts';
import type { Storage } from './storage.ts';

/**
 * The storage adapter STORAGE selects: `${DATA_DIR}/media` (default) or an S3-compatible store.
 * The S3 adapter is imported only for STORAGE=s3: the AWS SDK is ~40 MB resident and ~0.3 s
 * of every start, for nothing on local disk (docs/decisions/0009). `crash` is the crash
 * tests' fault injection between a local put's steps.
 */
export async function createStorage(
  env: Pick<Env, 'storage' | 'dataDir' | 's3' | 'mediaMemoryCacheMb'>,
  hooks: { crash?: CrashPoint } = {},
): Promise<Storage> {
  if (env.storage === 'local') {
    return createLocalStorage(path.join(env.dataDir, 'media'), {
      ...hooks,
      memoryCacheBytes: env.mediaMemoryCacheMb * 1024 * 1024,
    });
  }
  const { bucket, accessKeyId, secretAccessKey, endpoint, region } = env.s3;
  // env.ts already refuses STORAGE=s3 without these; this keeps the types honest.
  if (!bucket || !accessKeyId || !secretAccessKey)
    throw new Error('STORAGE=s3 needs S3_BUCKET and S3 credentials');
  const { createS3Storage } = await import('./s3-storage.ts');
  return createS3Storage({ endpoint, region, bucket, accessKeyId, secretAccessKey });
}
