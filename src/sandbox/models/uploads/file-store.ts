// The byte store beside the database: one file per upload, named by an opaque key.
// Bytes arrive as a stream and go to a temp file, counted as they pass, and only a
// complete upload is renamed into place. So memory stays flat whatever the size,
// an aborted or oversized upload leaves nothing behind, and a finished file is
// never half-written.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type ByteSource = NodeJS.ReadableStream | AsyncIterable<Uint8Array>;

export interface WriteOptions {
  /** Bytes allowed; one more byte stops the upload and deletes what was written. */
  maxBytes: number;
  /** Asked before each chunk is written (a quota shared by many writes); false stops the upload as too large. */
  take?: (bytes: number) => boolean;
  /**
   * Called once every byte has landed, before the file becomes visible. Returning
   * false refuses it (e.g. another upload to the same row finished first).
   */
  commit: (sizeBytes: number) => boolean | Promise<boolean>;
}

export type WriteResult =
  | { ok: true; sizeBytes: number }
  | { ok: false; reason: 'too_large'; sizeBytes: number }
  | { ok: false; reason: 'aborted'; error: unknown }
  | { ok: false; reason: 'refused'; sizeBytes: number };

export interface FileStore {
  readonly dir: string;
  write(key: string, source: ByteSource, options: WriteOptions): Promise<WriteResult>;
  /** Size of a stored file, or null when none is stored under the key. */
  size(key: string): Promise<number | null>;
  /** Up to `bytes` leading bytes of a stored file. */
  readHead(key: string, bytes: number): Promise<Buffer>;
  remove(key: string): Promise<void>;
  /** SHA-256 (hex) of a stored file, streamed. */
  sha256(key: string): Promise<string>;
  /** Deletes temp files left by a process that died mid-upload (older than this store object). */
  sweepTemp(): Promise<void>;
  /** Resolves once a write is in progress (at once if one is): lets a caller act while bytes are streaming. */
  busy(): Promise<void>;
  /** Resolves once no write is in progress (every temp file kept or removed): an event to wait for, not a time. */
  idle(): Promise<void>;
}

class TooLarge extends Error {
  constructor(readonly sizeBytes: number) {
    super('upload exceeds its limit');
  }
}

const KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** How much older than the store a temp file must look to be swept (see createFileStore). */
const MTIME_SLACK_MS = 1000;
/** How far the body may run ahead of the disk writes of one upload. */
const WRITE_AHEAD_BYTES = 1024 * 1024;

export function createFileStore(dir: string): FileStore {
  const tmpDir = join(dir, '.tmp');
  // Temp files older than this store belong to a dead process; newer ones to a live upload.
  // A file's mtime comes from the kernel's coarse clock, which can read a few ms behind
  // Date.now(): a file written just after this line can look older than it. So only files
  // older by more than a margin are swept (a crash's leftovers wait for the next start).
  const sweptBefore = Date.now() - MTIME_SLACK_MS;
  const pathOf = (key: string) => keyPath(dir, key);
  // SHA-256 of the files this store object wrote, by key; a file from before a restart, or written by
  // another process on the same data directory, is hashed when asked. A key's file is written once
  // (commit refuses a second upload to the same reservation), so a digest kept here stays true.
  const digests = new Map<string, string>();
  const writes = writeTracker();
  return {
    dir,
    write: (key, source, options) => writes.during(() => writeFile({ finalPath: pathOf(key), tmpDir, key, digests }, source, options)),
    busy: writes.busy,
    idle: writes.idle,
    // Async all through: a bad key is a rejection, as any other failure of the store.
    size: async (key) => sizeOf(pathOf(key)),
    readHead: async (key, bytes) => readHeadOf(pathOf(key), bytes),
    async remove(key) {
      digests.delete(key);
      await rm(pathOf(key), { force: true });
    },
    async sha256(key) {
      const path = pathOf(key);
      return digests.get(key) ?? sha256Of(path);
    },
    sweepTemp: () => sweepTemp(tmpDir, sweptBefore),
  };
}

/** The path of a key's file; a key that could name a path outside the store is refused. */
function keyPath(dir: string, key: string): string {
  // Keys come from our own ids, but never let one name a path outside the store.
  if (!KEY.test(key)) throw new Error(`invalid file key: ${key}`);
  return join(dir, key);
}

/** Counts writes in progress, and wakes who waits for the next one to start or for none to be left. */
function writeTracker() {
  let writing = 0;
  let onBusy: Array<() => void> = [];
  let onIdle: Array<() => void> = [];
  const release = (waiters: Array<() => void>) => {
    for (const w of waiters) w();
  };
  return {
    async during<T>(write: () => Promise<T>): Promise<T> {
      writing += 1;
      release(onBusy);
      onBusy = [];
      try {
        return await write();
      } finally {
        writing -= 1;
        if (writing === 0) {
          release(onIdle);
          onIdle = [];
        }
      }
    },
    busy: () => (writing > 0 ? Promise.resolve() : new Promise<void>((resolve) => onBusy.push(resolve))),
    idle: () => (writing === 0 ? Promise.resolve() : new Promise<void>((resolve) => onIdle.push(resolve))),
  };
}

/** Where one write goes, and the digests it keeps up to date. */
interface WriteTo {
  key: string;
  finalPath: string;
  tmpDir: string;
  digests: Map<string, string>;
}

/** One upload's bytes: to a temp file, counted, then committed into place (or removed). */
async function writeFile(to: WriteTo, source: ByteSource, { maxBytes, take, commit }: WriteOptions): Promise<WriteResult> {
  await mkdir(to.tmpDir, { recursive: true });
  const tmpPath = join(to.tmpDir, `${to.key}.${randomBytes(6).toString('hex')}.part`);
  const written = await writeCounted(tmpPath, source, maxBytes, take);
  if (!written.ok) return written;
  let accepted = false;
  try {
    accepted = await commit(written.sizeBytes);
    if (accepted) {
      // Forgotten first: between the rename and the set, a reader hashes the file itself.
      to.digests.delete(to.key);
      await rename(tmpPath, to.finalPath);
      to.digests.set(to.key, written.sha256);
    }
  } finally {
    if (!accepted) await rm(tmpPath, { force: true });
  }
  return accepted ? { ok: true, sizeBytes: written.sizeBytes } : { ok: false, reason: 'refused', sizeBytes: written.sizeBytes };
}

/** The source's bytes into `tmpPath`, counted and hashed as they pass; a failure leaves no file. */
async function writeCounted(
  tmpPath: string,
  source: ByteSource,
  maxBytes: number,
  take: WriteOptions['take'],
): Promise<{ ok: true; sizeBytes: number; sha256: string } | Extract<WriteResult, { reason: 'too_large' | 'aborted' }>> {
  let sizeBytes = 0;
  // Hashed as the bytes pass, so finalize need not read the file again (#16: a 1 GiB file took 2 s).
  const hash = createHash('sha256');
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sizeBytes += chunk.length;
      if (sizeBytes > maxBytes || (take && !take(chunk.length))) done(new TooLarge(sizeBytes));
      else {
        hash.update(chunk);
        done(null, chunk);
      }
    },
  });
  // A MiB of room: the body keeps being read while earlier chunks are on their way to disk, and
  // the queued chunks go down in one writev. At the default 16 KiB every 64 KiB chunk waited
  // for its own write, so each upload ran at the pace of thread-pool round trips (#16).
  const sink = createWriteStream(tmpPath, { flags: 'wx', highWaterMark: WRITE_AHEAD_BYTES });
  try {
    await pipeline(source, counter, sink);
  } catch (error) {
    // The file may still be opening when the source fails: remove it only once the sink has closed.
    if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
    await rm(tmpPath, { force: true });
    if (error instanceof TooLarge) return { ok: false, reason: 'too_large', sizeBytes: error.sizeBytes };
    return { ok: false, reason: 'aborted', error };
  }
  return { ok: true, sizeBytes, sha256: hash.digest('hex') };
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw error;
  }
}

async function readHeadOf(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** SHA-256 (hex) of a file, streamed. */
async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** Temp files modified before `sweptBefore` (a dead process's), removed. */
async function sweepTemp(tmpDir: string, sweptBefore: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return;
  }
  for (const name of names.filter((n) => n.endsWith('.part'))) {
    const path = join(tmpDir, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < sweptBefore) await rm(path, { force: true });
  }
}
