// The bytes of an upload, read from disk: hashed up front (the journal's key)
// or as the PUT sends them. Both read with the promise API of node:fs into
// memory they reuse, one read ahead: on a two-core machine the client's CPU per
// byte competes with the storage's, and fresh memory for every MiB (page
// faults, then garbage) cost a 1 GiB upload more than the socket writes did,
// while a read awaited before each hash added a thread-pool round trip per MiB
// (docs/performance.md, #16).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { FileIdentity } from '../state/upload-journal.js';
import { abortError, type PutBody } from '../client/upload-put.js';

/** One read from disk. */
const READ_BYTES = 1024 * 1024;
/** Buffers kept for reuse by one PUT: what the socket may hold at once, and one being read. */
const POOL_BUFFERS = 8;
/** One read of the up-front hash (two such buffers, reused: nothing is handed on). */
const HASH_READ_BYTES = 4 * 1024 * 1024;
/** Up to this size (as listed) a file is hashed from one whole read. */
const SMALL_HASH_BYTES = 256 * 1024;

/** The file is not what it was when the upload began (it grew, shrank or was rewritten while read). */
export class FileChanged extends Error {
  override readonly name = 'FileChanged';
}

/**
 * SHA-256 of a whole file; memory flat (two buffers). The next read is already
 * on its way while a chunk is hashed: a read through the thread pool takes about
 * as long as hashing what it brings (1 GiB here: 0.9-1.1 s one after the other,
 * ~0.7 s overlapped, the hash alone ~0.65 s).
 */
export async function hashFile(path: string, signal?: AbortSignal, size?: number): Promise<string> {
  // A small file (a creative of a folder sync) in one read: two 4 MiB buffers and the thread pool's
  // round trips per file were most of what hashing 300 small images cost. Read synchronously (#27):
  // readFile of the promise API is four round trips (open, fstat, read, close), ~5x the time of
  // readFileSync for a file this small, which holds the event loop for tens of microseconds.
  if (size !== undefined && size <= SMALL_HASH_BYTES) {
    if (signal?.aborted) throw abortError(signal);
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  const fh = await open(path, 'r');
  const buffers = [Buffer.allocUnsafe(HASH_READ_BYTES), Buffer.allocUnsafe(HASH_READ_BYTES)];
  let ahead: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    const hash = createHash('sha256');
    let turn = 0;
    ahead = fh.read(buffers[turn]!, 0, HASH_READ_BYTES, null);
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const { bytesRead, buffer } = await ahead;
      if (bytesRead === 0) return hash.digest('hex');
      turn ^= 1;
      ahead = fh.read(buffers[turn]!, 0, HASH_READ_BYTES, null);
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    // A read still out (an abort) finishes before the file closes.
    await ahead?.catch(() => undefined);
    await fh.close();
  }
}

/** Exactly `size` bytes, and size and mtime unchanged on disk, or a FileChanged. */
async function provenUnchanged(file: FileIdentity): Promise<void> {
  unchangedBy(file, await stat(file.path));
}

function unchangedBy(file: FileIdentity, now: Stats): void {
  if (now.size !== file.size)
    throw new FileChanged(`the file ${now.size > file.size ? 'grew' : 'shrank'} while it was read (${file.size} → ${now.size} bytes)`);
  if (now.mtimeMs !== file.mtimeMs) throw new FileChanged('the file was rewritten while it was read (its modification time changed)');
}

/** At most this size (as listed) a file is read whole, in one synchronous read: its hash, its PUT's body. */
export const SMALL_FILE_BYTES = SMALL_HASH_BYTES;

/** A small file's bytes, read whole, and their SHA-256. */
export interface SmallRead {
  bytes: Buffer;
  sha256: string;
}

/**
 * A small file's bytes (exactly `size` of them), proven to be what was listed (size and mtime of
 * the path: a file renamed over it counts), with their SHA-256; or a FileChanged.
 */
export function readSmallFile(file: FileIdentity): SmallRead {
  const bytes = Buffer.allocUnsafe(file.size);
  const fd = openSync(file.path, 'r');
  let bytesRead: number;
  try {
    bytesRead = file.size > 0 ? readSync(fd, bytes, 0, file.size, 0) : 0;
  } finally {
    closeSync(fd);
  }
  if (bytesRead < file.size) throw new FileChanged(`the file shrank while it was read (${bytesRead} of ${file.size} bytes were there)`);
  unchangedBy(file, statSync(file.path));
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * A small file's one read (#37: its type, its journal key and its PUT's body were three reads and
 * two hashes): what a step before the upload holds (`file.held`), else read now. Undefined for a
 * large file, or when the read fails: the step that needs the bytes reads them then and says why,
 * as it always did.
 */
export function smallFileOnce(file: FileIdentity & { held?: SmallRead | undefined }): SmallRead | undefined {
  if (file.held || file.size > SMALL_HASH_BYTES) return file.held;
  try {
    return readSmallFile(file);
  } catch {
    return undefined;
  }
}

/**
 * Bytes already read, and recorded by their hash (a small file: readSmallFile), as one PUT's
 * body: one chunk; `onHandOut` when it is handed to the socket.
 */
export class BufferBody implements PutBody {
  private given = false;
  constructor(
    private readonly bytes: Buffer,
    private readonly onHandOut: () => void,
  ) {}

  next(): Promise<Buffer | null> {
    if (this.given) return Promise.resolve(null);
    this.given = true;
    this.onHandOut();
    return Promise.resolve(this.bytes.length > 0 ? this.bytes : null);
  }

  release(): void {}

  close(): void {
    this.given = true;
  }

  allAtOnce(): Buffer {
    this.given = true;
    this.onHandOut();
    return this.bytes;
  }
}

/**
 * The file's bytes for one PUT: exactly `file.size` of them (a file that grows
 * does not overrun Content-Length), hashed as they are read. Before the last
 * chunk is handed on, it proves the file unchanged and gives the digest to
 * `onDigest`, which records it synchronously: so the storage can never hold
 * the complete file without the journal knowing its hash, and never a
 * complete body of a file that changed (next() fails instead).
 */
export class FileBody implements PutBody {
  /**
   * The file, opened by the first next(). Kept as the promise, so a close()
   * that comes while it is still opening closes what it opens (a handle left
   * to the garbage collector is Node's DEP0137 warning).
   */
  private opening: Promise<FileHandle> | undefined;
  private pos = 0;
  private ended = false;
  private closed = false;
  private readonly hash = createHash('sha256');
  private readonly free: Buffer[] = [];
  /** Each chunk handed out, and the pooled buffer it is a view of. */
  private readonly owners = new WeakMap<Buffer, Buffer>();
  /** The one read in flight (for the bytes at `pos`): next() starts one only when none is. */
  private ahead: Promise<{ buf: Buffer; bytesRead: number }> | undefined;

  constructor(
    private readonly file: FileIdentity,
    private readonly onDigest: (sha256: string) => void | Promise<void>,
  ) {}

  async next(): Promise<Buffer | null> {
    if (this.ended || this.closed) return null;
    if (this.file.size <= SMALL_HASH_BYTES) return this.whole();
    const fh = await (this.opening ??= open(this.file.path, 'r'));
    // Closed meanwhile: close() closes the handle; nothing more is read.
    if (this.closed) return null;
    let chunk: Buffer | null = null;
    if (this.pos < this.file.size) {
      const { buf, bytesRead } = await (this.ahead ??= this.readAt(fh, this.pos));
      this.ahead = undefined;
      if (this.closed) return null;
      if (bytesRead === 0) throw new FileChanged(`the file shrank while it was read (${this.pos} of ${this.file.size} bytes were there)`);
      chunk = buf.subarray(0, bytesRead);
      this.owners.set(chunk, buf);
      this.pos += bytesRead;
      // The next read goes out now, while this chunk is hashed and sent (see hashFile).
      if (this.pos < this.file.size) this.ahead = this.readAt(fh, this.pos);
      this.hash.update(chunk);
    }
    if (this.pos === this.file.size) {
      this.ended = true;
      await provenUnchanged(this.file);
      // Awaited: what it records is on disk before the last chunk leaves.
      await this.onDigest(this.hash.digest('hex'));
    }
    return chunk;
  }

  /**
   * A small file (a creative of a folder) as one chunk from one synchronous read (#27): the
   * FileHandle's open, read and close were three thread-pool round trips per file, and the
   * pooled MiB buffers are not needed for it. The same proofs, before the chunk is handed out.
   */
  private async whole(): Promise<Buffer | null> {
    this.ended = true;
    const { bytes, sha256 } = readSmallFile(this.file);
    // Awaited: what it records is on disk before the chunk leaves.
    await this.onDigest(sha256);
    return this.closed || bytes.length === 0 ? null : bytes;
  }

  private readAt(fh: FileHandle, pos: number): Promise<{ buf: Buffer; bytesRead: number }> {
    const buf = this.free.pop() ?? Buffer.allocUnsafe(READ_BYTES);
    const read = fh.read(buf, 0, Math.min(READ_BYTES, this.file.size - pos), pos).then(({ bytesRead }) => ({ buf, bytesRead }));
    read.catch(() => {}); // a read ahead that nobody awaits (the PUT stopped) must not be an unhandled rejection
    return read;
  }

  release(bytes: Buffer): void {
    const buf = this.owners.get(bytes);
    if (buf && !this.closed && this.free.length < POOL_BUFFERS) this.free.push(buf);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.free.length = 0;
    void this.closeFile();
  }

  /** Never rejects. */
  private async closeFile(): Promise<void> {
    // Still opening, or a read out: wait for both, then close what was opened.
    const fh = await this.opening?.catch(() => undefined);
    await this.ahead?.catch(() => undefined);
    await fh?.close().catch(() => {});
  }
}
