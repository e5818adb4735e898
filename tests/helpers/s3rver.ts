import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A local S3 (s3rver) on a free loopback port with one bucket, `canto`, in a temp directory. */
export async function startS3rver(): Promise<{
  endpoint: string;
  directory: string;
  stop(): Promise<void>;
}> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'canto' }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
