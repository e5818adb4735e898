import { isBucket, type Bucket, type Storage } from './storage.ts';
import type { Log } from '../log.ts';

/**
 * A stored key as rows keep it: `<bucket>/<object>` (catalogue.schema.ts); a bare object key
 * (as older rows may have, or an owned key `<owner>/<timestamp>.<ext>`) belongs to the
 * column's own `bucket`.
 */
export function locateStored(stored: string, bucket: Bucket): [Bucket, string] {
  const slash = stored.indexOf('/');
  const head = stored.slice(0, slash);
  return slash > 0 && isBucket(head) ? [head, stored.slice(slash + 1)] : [bucket, stored];
}

/**
 * Deletes objects no row names any more. A failure is logged, not thrown: the caller's
 * change has committed, and the media reconciler removes whatever stays behind.
 */
export async function discardStored(
  storage: Storage,
  log: Log,
  objects: Array<[Bucket, string]>,
): Promise<void> {
  await Promise.all(
    objects.map(([bucket, key]) =>
      storage
        .delete(bucket, key)
        .catch((err) => log.error({ err, bucket, key }, 'could not delete a stored file')),
    ),
  );
}
