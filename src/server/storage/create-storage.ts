import path from 'node:path';
import type { Env } from '../env.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The storage adapter STORAGE selects: `${DATA_DIR}/media` (default) or an S3-compatible store. */
export function createStorage(env: Pick<Env, 'storage' | 'dataDir' | 's3'>): Storage {
  if (env.storage === 'local') return createLocalStorage(path.join(env.dataDir, 'media'));
  const { bucket, accessKeyId, secretAccessKey, endpoint, region } = env.s3;
  // env.ts already refuses STORAGE=s3 without these; this keeps the types honest.
  if (!bucket || !accessKeyId || !secretAccessKey)
    throw new Error('STORAGE=s3 needs S3_BUCKET and S3 credentials');
  return createS3Storage({ endpoint, region, bucket, accessKeyId, secretAccessKey });
}
