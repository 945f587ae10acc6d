// What a re-run needs to finish an interrupted upload without sending twice
// what already landed: one small JSON file per (service, target, local file)
// under <config dir>/uploads/, written atomically (temp + rename) after each
// step. It holds the upload URL (a credential), so it gets the config dir's
// modes: 0700 directory, 0600 files.
//
// An entry is only trusted for the same file: same absolute path, size and
// mtime, and before anything that landed earlier is adopted, the same SHA-256
// (recorded before the last byte of the PUT left this process; see hashGate).
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';

export type JournalState =
  /** Reserved; its URL may still take the bytes. */
  | 'reserved'
  /** Every byte was read and handed to the PUT (sha256 set); the answer may have been lost. */
  | 'sent'
  /** The storage confirmed the bytes (200, or 409 already received with a matching hash). */
  | 'uploaded'
  /** Finalized and ready. */
  | 'ready';

export interface JournalEntry {
  v: 1;
  /** 'asset' or 'document:<brand slug>'. */
  target: string;
  path: string;
  size: number;
  mtimeMs: number;
  /** Asset or Document id. */
  id: string;
  state: JournalState;
  /** SHA-256 (hex) of the bytes sent to `id`, once all were read. */
  sha256?: string;
  uploadUrl?: string;
  uploadExpiresAt?: number;
  updatedAt: number;
}

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

export const sameFile = (e: JournalEntry, f: FileIdentity): boolean => e.path === f.path && e.size === f.size && e.mtimeMs === f.mtimeMs;

export class UploadJournal {
  private readonly dir: string;

  /** `scope` separates services and profiles (an id from one means nothing to another). */
  constructor(configDir: string, private readonly scope: string) {
    this.dir = join(configDir, 'uploads');
  }

  private file(target: string, path: string): string {
    const name = createHash('sha256').update(`${this.scope}\n${target}\n${path}`).digest('hex').slice(0, 40);
    return join(this.dir, `${name}.json`);
  }

  get(target: string, path: string): JournalEntry | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.file(target, path), 'utf8')) as JournalEntry;
      return entry.v === 1 && entry.target === target && entry.path === path ? entry : undefined;
    } catch {
      return undefined; // missing or unreadable: nothing to resume
    }
  }

  /** Synchronous on purpose: it must be on disk before the next step can happen. */
  put(entry: JournalEntry): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(entry.target, entry.path);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(entry) + '\n', { mode: 0o600 });
    renameSync(temp, file);
  }

  remove(target: string, path: string): void {
    rmSync(this.file(target, path), { force: true });
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
        return done(err as Error);
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
