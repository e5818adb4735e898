import { pipeline, Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertBucket,
  assertLocation,
  assertPutOptions,
  BUCKETS,
  assertRange,
  ByteLimit,
  contentTypeOfKey,
  isValidKey,
  notFound,
  tooLarge,
  unsatisfiable,
  type Bucket,
  type ByteRange,
  type PresignOptions,
  type Storage,
  type StoredObject,
} from './storage.ts';

export type S3Settings = {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/**
 * Any S3-compatible store (AWS S3, MinIO, R2). One S3 bucket holds every Canto bucket as a
 * key prefix: `<bucket>/<key>`. Path-style addressing, since most self-hosted stores lack
 * virtual-host DNS.
 */
export function createS3Storage(settings: S3Settings): Storage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Newer SDKs add CRC checksums and aws-chunked uploads by default, which several
    // S3-compatible stores reject; only send them where the S3 API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  let presigner: Promise<typeof import('@aws-sdk/s3-request-presigner')> | undefined;
  const objectKey = (bucket: string, key: string) => {
    assertLocation(bucket, key);
    return `${bucket}/${key}`;
  };

  async function stat(bucket: Bucket, key: string): Promise<StoredObject | null> {
    const Key = objectKey(bucket, key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: contentTypeOfKey(key),
        etag: head.ETag ?? `"${(head.ContentLength ?? 0).toString(16)}"`,
        lastModified: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    kind: 's3',

    async put(bucket, key, source, options) {
      const Key = objectKey(bucket, key);
      assertPutOptions(key, options);
      const limit = new ByteLimit(options.maxBytes);
      // pipeline (not pipe) so an error on either side destroys both streams.
      const body = pipeline(source, limit, () => {});
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: body, ContentType: contentTypeOfKey(key) },
        // At most queueSize × partSize (10 MB) in memory, whatever the file size.
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // Small files go up as one PutObject at the end, so usually nothing exists yet; the
        // delete covers a store that completed anyway. A failed multipart upload is aborted
        // by lib-storage (leavePartsOnError: false).
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => {});
        if (limit.exceeded) throw tooLarge(options.maxBytes);
        throw error;
      }
      if (limit.exceeded) {
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => {});
        throw tooLarge(options.maxBytes);
      }
      return { key, size: limit.bytes };
    },

    stat,

    async read(bucket, key, range?: ByteRange): Promise<Readable> {
      const Key = objectKey(bucket, key);
      assertRange(range);
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        const body = object.Body;
        if (!(body instanceof Readable)) throw new Error('S3 returned no readable body');
        return range ? exactRange(body, range, object.ContentRange) : body;
      } catch (error) {
        if (isMissing(error)) throw notFound();
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) {
          const size = (await stat(bucket as Bucket, key))?.size;
          if (size === undefined) throw notFound();
          throw unsatisfiable(size);
        }
        throw error;
      }
    },

    async presignedUrl(bucket, key, options: PresignOptions) {
      const Key = objectKey(bucket, key);
      // Loaded on first use: deployments on local disk never load the presigner.
      const { getSignedUrl } = await (presigner ??= import('@aws-sdk/s3-request-presigner'));
      const input = {
        Bucket,
        Key,
        // The media route serves by extension, never by stored metadata (ADR 0005).
        ResponseContentType: contentTypeOfKey(key),
        ResponseCacheControl: options.cacheControl,
        ResponseContentDisposition: options.contentDisposition,
      };
      const command =
        options.method === 'HEAD' ? new HeadObjectCommand(input) : new GetObjectCommand(input);
      return getSignedUrl(client, command, {
        signingDate: options.signingDate,
        expiresIn: options.expiresInSeconds,
      });
    },

    async delete(bucket, key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(bucket, key) }));
    },

    async exists(bucket, key) {
      return (await stat(bucket, key)) !== null;
    },

    async *list(bucket) {
      assertBucket(bucket);
      const Prefix = `${bucket}/`;
      let ContinuationToken: string | undefined;
      do {
        // Up to 1,000 keys a page: the listing never holds the whole bucket.
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(Prefix.length) ?? '';
          if (isValidKey(key)) yield key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async sweepUnfinished(olderThan) {
      // A put killed mid-way leaves nothing for a single PutObject (the store drops an
      // incomplete request), but a multipart upload's parts stay, invisible and billed,
      // until someone aborts it.
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        let page;
        try {
          page = await client.send(
            new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }),
          );
        } catch (error) {
          // Some S3-compatible stores (s3rver among them) cannot list uploads: only their
          // own expiry or lifecycle rules can clean those up.
          if (error instanceof S3ServiceException && error.name === 'NotImplemented') return 0;
          throw error;
        }
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !ownKey(upload.Key)) continue;
          // Initiated is when the put began: one still running for longer is a dead one.
          if (!upload.Initiated || upload.Initiated >= olderThan) continue;
          await client.send(
            new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
          );
          removed++;
        }
        const more = page.IsTruncated === true;
        KeyMarker = more ? page.NextKeyMarker : undefined;
        UploadIdMarker = more ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return removed;
    },

    async close() {
      client.destroy();
    },
  };
}

/** `<bucket>/<key>` as this adapter names objects: the S3 bucket may hold others' objects too. */
function ownKey(objectKey: string): boolean {
  const slash = objectKey.indexOf('/');
  return (
    slash > 0 &&
    (BUCKETS as readonly string[]).includes(objectKey.slice(0, slash)) &&
    isValidKey(objectKey.slice(slash + 1))
  );
}

/**
 * Some S3-compatible stores answer a range with more than was asked (s3rver sends the whole
 * object for `bytes=0-0`); trust Content-Range and trim to exactly the requested bytes.
 */
function exactRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange ?? '');
  const sentStart = m ? Number(m[1]) : 0;
  const sentEnd = m ? Number(m[2]) : Number.POSITIVE_INFINITY;
  const size = m && m[3] !== '*' ? Number(m[3]) : Number.POSITIVE_INFINITY;
  const end = Math.min(range.end, size - 1);
  if (sentStart === range.start && sentEnd === end) return body;
  if (sentStart > range.start)
    throw new Error(`S3 sent range ${contentRange} for ${range.start}-${range.end}`);
  let skip = range.start - sentStart;
  let left = end - range.start + 1;
  const slice = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (left <= 0) return callback();
      if (skip >= chunk.length) {
        skip -= chunk.length;
        return callback();
      }
      const part = chunk.subarray(skip, skip + left);
      skip = 0;
      left -= part.length;
      callback(null, part);
      if (left <= 0) this.push(null);
    },
  });
  // Not pipeline(): stopping early must close the S3 response without failing the slice.
  body.on('error', (error) => slice.destroy(error));
  slice.on('close', () => body.destroy());
  slice.on('end', () => slice.destroy());
  body.pipe(slice);
  return slice;
}

function isMissing(error: unknown) {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404
  );
}
