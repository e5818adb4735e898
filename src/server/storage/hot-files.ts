/**
 * Which media files local storage keeps whole in memory, within a byte budget (the least
 * recently used go first). A player's seeks read one file many times; from memory a small
 * range costs a copy-free slice instead of a positioned read through libuv's thread pool
 * (docs/decisions/0010). No I/O here: local-storage.ts loads the bytes when `wanted` says so.
 *
 * A file is wanted on its second small read (one read says nothing about the next), if it
 * fits `maxFileBytes` and is neither held nor loading. Entries are checked against the
 * file's current ETag, and `drop` (a put or delete of the key) also voids a load in flight.
 */
export class HotFiles {
  private readonly held = new Map<string, { etag: string; bytes: Buffer }>();
  private readonly loading = new Map<string, LoadToken>();
  // Files read once, oldest first; bounded so a scan of many files costs a fixed amount.
  private readonly seen = new Set<string>();
  private total = 0;
  readonly maxFileBytes: number;

  constructor(
    private readonly budgetBytes: number,
    maxFileBytes = 32 * 1024 * 1024,
    private readonly seenMax = 1024,
  ) {
    this.maxFileBytes = Math.min(maxFileBytes, budgetBytes);
  }

  get enabled(): boolean {
    return this.budgetBytes > 0;
  }

  /** Bytes held in memory now. */
  get bytes(): number {
    return this.total;
  }

  /** The file's bytes when held for this version of it; marks them recently used. */
  get(file: string, etag: string): Buffer | undefined {
    const entry = this.held.get(file);
    if (!entry || entry.etag !== etag) return undefined;
    this.held.delete(file);
    this.held.set(file, entry);
    return entry.bytes;
  }

  /** A small read of `file`: a token when its bytes should be loaded now, else undefined. */
  wanted(file: string, size: number): LoadToken | undefined {
    if (!this.enabled || size > this.maxFileBytes) return undefined;
    if (this.held.has(file) || this.loading.has(file)) return undefined;
    if (!this.seen.delete(file)) {
      this.seen.add(file);
      if (this.seen.size > this.seenMax) this.seen.delete(this.seen.values().next().value!);
      return undefined;
    }
    const token: LoadToken = {};
    this.loading.set(file, token);
    return token;
  }

  /** The bytes a `wanted` load read; kept unless a drop voided the load. */
  loaded(file: string, token: LoadToken, etag: string, bytes: Buffer): void {
    if (this.loading.get(file) !== token) return;
    this.loading.delete(file);
    if (bytes.length > this.maxFileBytes) return;
    for (const [old, entry] of this.held) {
      if (this.total + bytes.length <= this.budgetBytes) break;
      this.held.delete(old);
      this.total -= entry.bytes.length;
    }
    this.held.set(file, { etag, bytes });
    this.total += bytes.length;
  }

  /** A `wanted` load that did not finish: a later read may try again. */
  failed(file: string, token: LoadToken): void {
    if (this.loading.get(file) === token) this.loading.delete(file);
  }

  /** The key was written or deleted in this process: forget its bytes, void a load. */
  drop(file: string): void {
    const entry = this.held.get(file);
    if (entry) {
      this.held.delete(file);
      this.total -= entry.bytes.length;
    }
    this.loading.delete(file);
    this.seen.delete(file);
  }

  clear(): void {
    this.held.clear();
    this.loading.clear();
    this.seen.clear();
    this.total = 0;
  }
}

/** Identifies one load, so a drop during it voids its result. */
export type LoadToken = Record<string, never>;
