// What a re-run needs to finish an interrupted upload without sending twice
// what already landed, and to show (not send) a file uploaded before.
//
// Entries are found by CONTENT, not by path: one small JSON file per
// (service, target, size, SHA-256) under <config dir>/uploads/, listing every
// Asset or Document this machine made of those bytes, each tagged with a
// fingerprint of the API key that made it. So a touched, copied or freshly
// checked-out file finds its upload, and the service tells which entry is the
// current organization's (an id of another organization answers 404).
//
// Each content file has its own lock (lock-file.ts): two runs uploading the
// same bytes take turns, and the second finds what the first made. Writes are
// atomic (temp + fsync + rename + directory fsync) and synchronous: an entry is
// on disk before the step it announces. The upload URL in an entry is a
// credential: 0700 directories, 0600 files. An unreadable file is moved aside
// (`.corrupt-<time>`), named on stderr, and treated as empty.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { codeOf } from '../client/errors.js';
import { isRecord } from '../client/json.js';
import { acquireLock, describeHolder, type Lock, type LockHolder } from './lock-file.js';

export type JournalState =
  /** Reserved; its URL may still take the bytes. */
  | 'reserved'
  /** Every byte was read and handed to the PUT (sentSha256 set); the answer may have been lost. */
  | 'sent'
  /** The storage confirmed the bytes (200, or 409 already received with a matching hash). */
  | 'uploaded'
  /** Finalized and ready. */
  | 'ready';

export interface JournalEntry {
  /** Asset or Document id. */
  id: string;
  /** Fingerprint of the API key that made it (never the key). */
  keyFp: string;
  state: JournalState;
  /** SHA-256 (hex) of the bytes that went to `id`, recorded before the last of them left. */
  sentSha256?: string;
  uploadUrl?: string;
  uploadExpiresAt?: number;
  updatedAt: number;
}

interface ContentFile {
  v: 2;
  target: string;
  size: number;
  sha256: string;
  entries: JournalEntry[];
}

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

const STATES: readonly string[] = ['reserved', 'sent', 'uploaded', 'ready'];
const validEntry = (x: unknown): x is JournalEntry =>
  isRecord(x) &&
  typeof x.id === 'string' &&
  typeof x.keyFp === 'string' &&
  typeof x.state === 'string' &&
  STATES.includes(x.state) &&
  typeof x.updatedAt === 'number';

/** A key's fingerprint for the journal: enough to tell keys apart, useless to call the service with. */
export const keyFingerprint = (apiKey: string | undefined): string =>
  createHash('sha256')
    .update(`adops upload journal\n${apiKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);

/** Write atomically and durably: temp file, fsync, rename, fsync of the directory. */
function writeDurably(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  try {
    const dirFd = openSync(join(file, '..'), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    /* some file systems refuse a directory fsync; the file itself is synced */
  }
}

export class UploadJournal {
  private readonly root: string;

  /**
   * `service` separates deployments (an id from one means nothing to another);
   * `keyFp` tags what this run makes; `onNote` hears about unreadable files.
   */
  constructor(
    configDir: string,
    private readonly service: string,
    readonly keyFp: string,
    private readonly onNote?: (message: string) => void,
  ) {
    this.root = join(configDir, 'uploads');
  }

  private file(target: string, size: number, sha256: string): string {
    const scope = createHash('sha256').update(`${this.service}\n${target}`).digest('hex').slice(0, 16);
    return join(this.root, scope, `${size}-${sha256}.json`);
  }

  private read(file: string, target: string, size: number, sha256: string, setAside: boolean): JournalEntry[] {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return [];
      throw err;
    }
    try {
      const c: unknown = JSON.parse(text);
      if (isRecord(c) && c.v === 2 && c.target === target && c.size === size && c.sha256 === sha256 && Array.isArray(c.entries) && c.entries.every(validEntry))
        return c.entries;
    } catch {
      /* judged below */
    }
    if (setAside) {
      const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(file, aside);
      this.onNote?.(
        `the upload journal ${file} could not be read (cut short or not a journal); kept its bytes as ${aside} and went on without it (an upload it recorded may stay reserved)`,
      );
    }
    return [];
  }

  /** This content's entries, read without the lock: for a look (sync's plan), never to act on. */
  peek(target: string, size: number, sha256: string): JournalEntry[] {
    return this.read(this.file(target, size, sha256), target, size, sha256, false);
  }

  /** Lock this content's entries (waiting for another run that holds them), then read them. */
  async open(
    target: string,
    size: number,
    sha256: string,
    o: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void } = {},
  ): Promise<ContentSlot> {
    const file = this.file(target, size, sha256);
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const lock = await acquireLock(`${file}.lock`, {
      wait: true,
      what: 'adops upload',
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onWait ? { onWait: o.onWait } : {}),
    });
    try {
      return new ContentSlot(file, { v: 2, target, size, sha256, entries: this.read(file, target, size, sha256, true) }, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }
}

export const waitingNote = (holder: LockHolder | undefined) =>
  holder?.pid === process.pid && holder.host === hostname()
    ? 'waiting: another file of this run has the same bytes'
    : `waiting: another run is uploading the same bytes (${describeHolder(holder)})`;

/** One content's entries under its lock: read once, every change written through. */
export class ContentSlot {
  constructor(
    private readonly file: string,
    private readonly content: ContentFile,
    private readonly lock: Lock,
  ) {}

  get entries(): readonly JournalEntry[] {
    return this.content.entries;
  }

  get(id: string): JournalEntry | undefined {
    return this.content.entries.find((e) => e.id === id);
  }

  /** Synchronous on purpose: it must be on disk before the next step can happen. */
  put(entry: JournalEntry): void {
    this.content.entries = [...this.content.entries.filter((e) => e.id !== entry.id), entry];
    writeDurably(this.file, JSON.stringify(this.content) + '\n');
  }

  remove(id: string): void {
    if (!this.get(id)) return;
    this.content.entries = this.content.entries.filter((e) => e.id !== id);
    writeDurably(this.file, JSON.stringify(this.content) + '\n');
  }

  release(): void {
    this.lock.release();
  }
}

/**
 * A pass-through that hashes what flows and holds back the last chunk until
 * the digest has been handed to `onDigest` (which records it synchronously).
 * So the storage can never hold the complete file without the journal knowing
 * its hash: a crash at any point leaves either an incomplete upload (nothing
 * kept) or a recorded hash to prove identity with on the re-run.
 */
export function hashGate(onDigest: (sha256: string) => void): Transform {
  const hash = createHash('sha256');
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      hash.update(chunk);
      const previous = held;
      held = chunk;
      done(null, previous);
    },
    flush(done: TransformCallback) {
      try {
        onDigest(hash.digest('hex'));
      } catch (err) {
        return done(err instanceof Error ? err : new Error(String(err)));
      }
      done(null, held);
    },
  });
}

/** SHA-256 of a whole file, streamed (memory flat). */
export function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(path, { highWaterMark: 1024 * 1024, ...(signal ? { signal } : {}) });
    stream.on('data', (c) => hash.update(c));
    stream.on('error', reject);
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}
