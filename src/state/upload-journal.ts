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
// Each content file has its own lock (lock.ts): two runs uploading the
// same bytes take turns, and the second finds what the first made. A run's
// locks in one directory are links to one holder file of the run (no new
// file per lock: lock.ts, sharedHolder).
//
// A large file (SIZE_FIRST_BYTES and over) is not read twice when nothing of
// its size was ever recorded: its run takes the lock of its SIZE first, and
// when no entry of that size exists, it reserves and sends at once, its entry
// kept in `${size}-pending.json` until the PUT's own hash names the content
// file (written before the last chunk leaves, see upload-body.ts). So an entry
// still pending after a crash names a reservation whose bytes never all left:
// the next run of that size (it hashes first, as entries exist) may send to it
// again only for the same name and type, and adopts landed bytes only on the
// service's own checksum. Lock order is always size, then content. Writes are
// atomic (temp + fsync + rename + directory fsync) and awaited: an entry is on
// disk before the step it announces. They do not block the event loop: the
// files of a --concurrency run are fsynced side by side, and the renames in one
// directory share one directory fsync (durable-write.ts, a group commit). The upload URL in an entry is a
// credential: 0700 directories, 0600 files. A file that is not a journal (cut
// short, garbage) is moved aside (`.corrupt-<time>`), named on stderr, and
// treated as empty; one the disk will not let adops read (no permission, a
// directory) stops the run naming it (read-back.ts), never read as empty.
import { createHash } from 'node:crypto';
import { readdirSync, renameSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isRecord, printableJson } from '../client/json.js';
import { ensureDir, removeFile as removeStateFile, writeDurablyAsync } from './durable-write.js';
import { guardWrite } from './errors.js';
import { keyFingerprint, type ServiceScope } from './fingerprint.js';
import { acquireLock, describeHolder, type Lock, type LockHolder } from './lock.js';
import { readStoreFile } from './read-back.js';

export type JournalState =
  /** Reserved; its URL may still take the bytes. */
  | 'reserved'
  /** Every byte was read and handed to the PUT (sentSha256 set); the answer may have been lost. */
  | 'sent'
  /**
   * The storage confirmed the bytes. No longer written (#27): `sent` already names the bytes by
   * their hash and resumes the same way; an entry of an older adops may still read so.
   */
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
  /** What the reservation was made for: a pending entry is sent to again only for the same. */
  filename?: string;
  contentType?: string;
  updatedAt: number;
}

/** At and over this size a file is reserved before it is hashed when nothing of its size is in the journal. */
export const SIZE_FIRST_BYTES = 16 * 1024 * 1024;

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

export { keyFingerprint };

const WHAT = 'the upload journal';
const writeDurably = (file: string, text: string) => writeDurablyAsync(file, text, WHAT);
const removeFile = (file: string) => removeStateFile(file, WHAT);

export class UploadJournal {
  private readonly root: string;
  /** The service's base URL as the whole store keys it (serviceScope: `https://X/` and `https://X` are one). */
  private readonly service: string;
  /** Tags what this run makes (a fingerprint of its key, never the key). */
  readonly keyFp: string;

  /**
   * `scope` (serviceScope) separates deployments (an id from one means nothing to another) and
   * tags what this run makes; `onNote` hears about unreadable files.
   */
  constructor(
    configDir: string,
    scope: ServiceScope,
    private readonly onNote?: (message: string) => void,
  ) {
    this.root = join(configDir, 'uploads');
    this.service = scope.baseUrl;
    this.keyFp = scope.keyFp;
  }

  private scope(target: string): string {
    return join(this.root, createHash('sha256').update(`${this.service}\n${target}`).digest('hex').slice(0, 16));
  }

  /** `sha256` '' names the size's pending file. */
  private file(target: string, size: number, sha256: string): string {
    return join(this.scope(target), `${size}-${sha256 || 'pending'}.json`);
  }

  private read(file: string, target: string, size: number, sha256: string, setAside: boolean): JournalEntry[] {
    // One the disk will not let us read stops the run (LocalStateError): read as empty, its bytes would be sent again.
    const text = readStoreFile(file, WHAT);
    if (text === undefined) return [];
    try {
      const c: unknown = JSON.parse(text);
      if (isRecord(c) && c.v === 2 && c.target === target && c.size === size && c.sha256 === sha256 && Array.isArray(c.entries) && c.entries.every(validEntry))
        return c.entries;
    } catch {
      /* judged below */
    }
    if (setAside) {
      const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      guardWrite(file, WHAT, () => renameSync(file, aside));
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
    ensureDir(join(file, '..'), WHAT);
    const lock = await uploadLock(`${file}.lock`, o);
    try {
      return new ContentSlot(file, { v: 2, target, size, sha256, entries: this.read(file, target, size, sha256, true) }, [lock]);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * Lock every entry of this SIZE (waiting for another run that holds it), then
   * say whether any exists. With none, `unhashed()` records without a hash; else
   * `content(sha)` opens the content's entries with the size's pending ones.
   */
  async lockSize(target: string, size: number, o: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void } = {}): Promise<SizeLock> {
    const dir = this.scope(target);
    ensureDir(dir, WHAT);
    const lock = await uploadLock(join(dir, `${size}.lock`), o);
    try {
      const names = readdirSync(dir).filter((n) => n.startsWith(`${size}-`) && n.endsWith('.json'));
      return new SizeLock(this, target, size, names, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** @internal for SizeLock */
  readPending(target: string, size: number): { file: string; entries: JournalEntry[] } {
    const file = this.file(target, size, '');
    return { file, entries: this.read(file, target, size, '', true) };
  }

  /** @internal for SizeLock: the ids in this size's content files. */
  contentIds(target: string, size: number, names: readonly string[]): Set<string> {
    const ids = new Set<string>();
    for (const name of names) {
      const sha = name.slice(`${size}-`.length, -'.json'.length);
      if (/^[0-9a-f]{64}$/.test(sha)) for (const e of this.read(this.file(target, size, sha), target, size, sha, false)) ids.add(e.id);
    }
    return ids;
  }

  /** @internal for SizeLock: `sha256` '' names the size's pending file. */
  contentFile(target: string, size: number, sha256: string): string {
    return this.file(target, size, sha256);
  }
}

/** The lock of one size's entries (large files): decides whether the file must be hashed before it is reserved. */
export class SizeLock {
  private handedOn = false;
  constructor(
    private readonly journal: UploadJournal,
    private readonly target: string,
    private readonly size: number,
    private readonly names: readonly string[],
    private readonly lock: Lock,
  ) {}

  /** Whether any entry of this size exists (then the file is hashed first). */
  get seen(): boolean {
    return this.names.length > 0;
  }

  /** A slot with no hash yet: entries go to the pending file until `settle(sha)`. */
  unhashed(): ContentSlot {
    this.handedOn = true;
    // No entry of this size exists (that is why it is unhashed): nothing to read, only where to write.
    return new ContentSlot(
      this.journal.contentFile(this.target, this.size, ''),
      { v: 2, target: this.target, size: this.size, sha256: '', entries: [] },
      [this.lock],
      {
        contentFile: (sha) => this.journal.contentFile(this.target, this.size, sha),
      },
    );
  }

  /** This content's slot (its own lock too), with the size's pending entries that no content file names. */
  async content(sha256: string, o: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void } = {}): Promise<ContentSlot> {
    const slot = await this.journal.open(this.target, this.size, sha256, o);
    this.handedOn = true;
    const pending = this.journal.readPending(this.target, this.size);
    const known = this.journal.contentIds(this.target, this.size, this.names);
    await slot.withPending(pending.file, pending.entries, known, this.lock);
    return slot;
  }

  /** Free the size lock unless a slot took it over (the slot's release frees it). */
  release(): void {
    if (!this.handedOn) this.lock.release();
  }
}

export const waitingNote = (holder: LockHolder | undefined, of: 'bytes' | 'size' = 'bytes') => {
  const same = of === 'bytes' ? 'the same bytes' : 'a file of the same size';
  return holder?.pid === process.pid && holder.host === hostname()
    ? `waiting: another file of this run has ${same}`
    : `waiting: another run is uploading ${same} (${describeHolder(holder)})`;
};

/** One content's entries under its lock: read once, every change written through. */
export class ContentSlot {
  private pendingFile: string | undefined;
  private pendingEntries: JournalEntry[] = [];

  constructor(
    private file: string,
    private readonly content: ContentFile,
    private readonly locks: Lock[],
    private readonly unhashed?: { contentFile: (sha256: string) => string },
  ) {}

  get entries(): readonly JournalEntry[] {
    return this.content.entries;
  }

  /** Entries of this size whose bytes never all left (a run cut short before its PUT's hash); see the header. */
  get pending(): readonly JournalEntry[] {
    return this.pendingEntries;
  }

  /** Whether the content is known yet (false only for a large file's first, unhashed, run). */
  get hashed(): boolean {
    return !this.unhashed || this.content.sha256 !== '';
  }

  /** @internal for SizeLock.content: adds the size's pending entries (minus those a content file names) and its lock. */
  async withPending(file: string, entries: JournalEntry[], known: Set<string>, sizeLock: Lock): Promise<void> {
    this.pendingFile = file;
    this.locks.unshift(sizeLock);
    this.pendingEntries = entries.filter((e) => !known.has(e.id) && !this.get(e.id));
    // A crash between a content file's write and the pending file's: the content file holds it.
    if (this.pendingEntries.length !== entries.length) await this.savePending();
  }

  /** A pending entry becomes this content's: judged from now on like any other. */
  async adoptPending(entry: JournalEntry): Promise<void> {
    await this.put(entry);
    await this.dropPending(entry.id);
  }

  async dropPending(id: string): Promise<void> {
    const before = this.pendingEntries.length;
    this.pendingEntries = this.pendingEntries.filter((e) => e.id !== id);
    if (this.pendingEntries.length !== before) await this.savePending();
  }

  private async savePending(): Promise<void> {
    if (!this.pendingFile) return;
    if (this.pendingEntries.length > 0) {
      await writeDurably(this.pendingFile, printableJson({ ...this.content, sha256: '', entries: this.pendingEntries }) + '\n');
      return;
    }
    removeFile(this.pendingFile);
  }

  /**
   * The unhashed slot's content is now known (the PUT's hash, before its last
   * chunk leaves): its entries move to the content file, then the pending file goes.
   * Awaited before that chunk leaves, like put().
   */
  async settle(sha256: string): Promise<void> {
    if (!this.unhashed || this.content.sha256 !== '') return;
    const pending = this.file;
    this.content.sha256 = sha256;
    this.file = this.unhashed.contentFile(sha256);
    await writeDurably(this.file, printableJson(this.content) + '\n');
    removeFile(pending);
  }

  get(id: string): JournalEntry | undefined {
    return this.content.entries.find((e) => e.id === id);
  }

  /** On disk when it resolves: awaited before the next step can happen. */
  async put(entry: JournalEntry): Promise<void> {
    this.content.entries = [...this.content.entries.filter((e) => e.id !== entry.id), entry];
    await this.save();
  }

  async remove(id: string): Promise<void> {
    if (!this.get(id)) return;
    this.content.entries = this.content.entries.filter((e) => e.id !== id);
    await this.save();
  }

  private async save(): Promise<void> {
    // An empty pending file would only make the next run of this size hash first.
    if (!this.hashed && this.content.entries.length === 0) removeFile(this.file);
    else await writeDurably(this.file, printableJson(this.content) + '\n');
  }

  /** Frees the content's lock, then the size's (the reverse of taking them). */
  release(): void {
    for (const lock of [...this.locks].reverse()) lock.release();
  }
}

/** An upload's lock: waited for, shared by the runs of one holder (its resends), abortable. */
function uploadLock(path: string, o: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void }) {
  return acquireLock(path, {
    wait: true,
    what: 'adops upload',
    sharedHolder: true,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onWait ? { onWait: o.onWait } : {}),
  });
}
