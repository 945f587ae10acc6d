// What a re-run needs to finish an interrupted upload without sending twice
// what already landed, and to show (not send) a file uploaded before.
//
// Entries are found by CONTENT, not by path: one content per (service,
// target, size, SHA-256) under <config dir>/uploads/ (named as its own file
// once was, `<scope>/<size>-<sha256>.json`; kept in its scope's store file,
// upload-store.ts), listing every Asset or Document this machine made of those
// bytes, each tagged with a fingerprint of the API key that made it. So a touched, copied or freshly
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
// service's own checksum. Lock order is always size, then content. A write is
// a record appended to the run's own log (upload-log.ts, #37), awaited: on disk
// before the step it announces, the files in flight sharing one fsync. Reads
// take the newest of the store and every log's records (by `gen`); the
// log is folded into the scopes' store files at the run's clean end, or by the next
// run when this one dies (upload-fold.ts). The upload URL in an entry is a
// credential: 0700 directories, 0600 files. A file that is not a journal (cut
// short, garbage) is moved aside (`.corrupt-<time>`), named on stderr, and
// treated as empty; one the disk will not let adops read (no permission, a
// directory) stops the run naming it (read-back.ts), never read as empty.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { ensureDir } from './durable-write.js';
import { keyFingerprint, type ServiceScope } from './fingerprint.js';
import { acquireLock, describeHolder, type Lock, type LockHolder } from './lock.js';
import { readStoreFile } from './read-back.js';
import { contentOf, genOf, type ContentFile, type JournalEntry } from './upload-entry.js';
import { foldDead, foldOwn } from './upload-fold.js';
import { RunLogs } from './upload-log.js';
import { legacyContentNames, setAside as setAsideFile, UploadStoreFiles } from './upload-store.js';

export type { JournalEntry, JournalState } from './upload-entry.js';

/** At and over this size a file is reserved before it is hashed when nothing of its size is in the journal. */
export const SIZE_FIRST_BYTES = 16 * 1024 * 1024;

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

export { keyFingerprint };

const WHAT = 'the upload journal';

/** A content's entries as last written, and that write's gen (the next one writes gen + 1). */
export interface Read {
  entries: JournalEntry[];
  gen: number;
}

export class UploadJournal {
  private readonly root: string;
  /** The service's base URL as the whole store keys it (serviceScope: `https://X/` and `https://X` are one). */
  private readonly service: string;
  /** Tags what this run makes (a fingerprint of its key, never the key). */
  readonly keyFp: string;
  /** This run's log and what it read of the others' (#37). */
  private readonly logs: RunLogs;
  /** The scopes' store files, each parsed once while it does not change (upload-store.ts). */
  private readonly store: UploadStoreFiles;
  /** The scope directory of each target (a SHA-256 each, computed once). */
  private readonly scopes = new Map<string, string>();
  /** Whether a peek read the logs and the store in this turn of the event loop. */
  private looking = false;
  /** Per scope directory, the content files of an older adops in it. */
  private readonly legacy = new Map<string, Set<string>>();

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
    this.logs = new RunLogs(this.root);
    this.store = new UploadStoreFiles((file, aside) => this.noteSetAside(file, aside));
  }

  private scope(target: string): string {
    let dir = this.scopes.get(target);
    if (!dir) {
      dir = join(this.root, createHash('sha256').update(`${this.service}\n${target}`).digest('hex').slice(0, 16));
      this.scopes.set(target, dir);
    }
    return dir;
  }

  /** `sha256` '' names the size's pending file. */
  private file(target: string, size: number, sha256: string): string {
    return join(this.scope(target), `${size}-${sha256 || 'pending'}.json`);
  }

  /** A store file's name in the logs: relative to the store's root, with `/` on every system. */
  private rel(file: string): string {
    // Every store file is joined under the root (file()): its tail, without path.relative's two resolves per read and write.
    const under = file.startsWith(this.root + sep) ? file.slice(this.root.length + 1) : relative(this.root, file);
    return sep === '/' ? under : under.split(sep).join('/');
  }

  /** The newest of the logs' records and the store (logs first: see upload-log.ts); `asRead`: see peek. */
  private read(file: string, target: string, size: number, sha256: string, setAside: boolean, asRead = false): Read {
    const logged = this.logs.latest(this.rel(file), asRead);
    const stored = this.readStored(file, target, size, sha256, setAside && !logged, asRead);
    if (!logged || logged.gen <= stored.gen) return stored;
    const c = logged.content;
    return c.target === target && c.size === size && c.sha256 === sha256 ? { entries: c.entries, gen: logged.gen } : stored;
  }

  /** The newer of the scope's store file's record and an older adops's own content file (upload-store.ts). */
  private readStored(file: string, target: string, size: number, sha256: string, setAside: boolean, asRead: boolean): Read {
    const c = this.store.read(dirname(file), setAside, asRead).get(basename(file));
    const legacy = this.readLegacy(file, target, size, sha256, setAside);
    if (!c || genOf(c) <= legacy.gen || c.target !== target || c.size !== size || c.sha256 !== sha256) return legacy;
    return { entries: c.entries, gen: genOf(c) };
  }

  private readLegacy(file: string, target: string, size: number, sha256: string, setAside: boolean): Read {
    // Listed once per scope and run (nothing writes such a file any more): no failed open per content.
    if (!this.legacyNames(dirname(file)).has(basename(file))) return { entries: [], gen: 0 };
    // One the disk will not let us read stops the run (LocalStateError): read as empty, its bytes would be sent again.
    const text = readStoreFile(file, WHAT);
    if (text === undefined) return { entries: [], gen: 0 };
    try {
      const c = contentOf(JSON.parse(text));
      if (c && c.target === target && c.size === size && c.sha256 === sha256) return { entries: c.entries, gen: genOf(c) };
    } catch {
      /* judged below */
    }
    if (setAside) this.noteSetAside(file, setAsideFile(file));
    return { entries: [], gen: 0 };
  }

  /** The content files an older adops left in scope directory `dir` (listed at its first read in this run). */
  private legacyNames(dir: string): Set<string> {
    let names = this.legacy.get(dir);
    if (!names) {
      names = legacyContentNames(dir);
      this.legacy.set(dir, names);
    }
    return names;
  }

  private noteSetAside(file: string, aside: string): void {
    this.onNote?.(
      `the upload journal ${file} could not be read (cut short or not a journal); kept its bytes as ${aside} and went on without it (an upload it recorded may stay reserved)`,
    );
  }

  /** @internal for ContentSlot: a content's whole state, on disk (in this run's log) when it resolves. */
  write(file: string, content: ContentFile, gen: number): Promise<void> {
    return this.logs.write({ file: this.rel(file), gen, content });
  }

  /** @internal for ContentSlot and SizeLock: the gen a file was last written with (0: never). */
  genOf(file: string, target: string, size: number, sha256: string): number {
    return this.read(file, target, size, sha256, false).gen;
  }

  /** Folds the logs of runs that died into the store (at a run's start); a live run's is left to it. */
  foldDead(): Promise<number> {
    return foldDead(this.logs);
  }

  /** The run's clean end: its log folded into the store and deleted. */
  close(): Promise<void> {
    return foldOwn(this.logs);
  }

  /** This content's entries, read without the lock: for a look (sync's plan), never to act on. */
  peek(target: string, size: number, sha256: string): JournalEntry[] {
    // One look per turn of the event loop: the logs and the store are read again at its first
    // peek only, so a plan of N files reads them once, not N times (a directory listing and a
    // stat each). Locked reads (open, lockSize) always read them again.
    const asRead = this.looking;
    if (!asRead) {
      this.looking = true;
      setImmediate(() => (this.looking = false)).unref();
    }
    return this.read(this.file(target, size, sha256), target, size, sha256, false, asRead).entries;
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
      const { entries, gen } = this.read(file, target, size, sha256, true);
      return new ContentSlot(this, file, { v: 2, target, size, sha256, entries }, gen, [lock]);
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
      return new SizeLock(this, target, size, this.sizeNames(target, size), lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * The names of this size's contents that hold entries: the store's, an older adops's content
   * files, and those only a log has written yet, less those whose newest write emptied them (a
   * log's record, or a fold's tombstone).
   */
  private sizeNames(target: string, size: number): string[] {
    const dir = this.scope(target);
    const ofSize = (n: string) => n.startsWith(`${size}-`) && n.endsWith('.json');
    // The logs before the store, as read() does: another run folds its log (store written, then the log deleted) under
    // the fold's lock, not this one, so a fold landing between the two reads is in the later one. Store first, it was in
    // neither, and the size read as never seen: the same large file reserved and sent twice (#37 session 10).
    const logged = this.logs.latestUnder(this.rel(dir), `${size}-`);
    const names = new Set([...readdirSync(dir).filter(ofSize), ...[...this.store.read(dir, false).keys()].filter(ofSize)]);
    for (const rel of logged.keys()) names.add(rel.slice(rel.lastIndexOf('/') + 1));
    return [...names].filter((name) => {
      const sha = name.slice(`${size}-`.length, -'.json'.length);
      if (sha !== 'pending' && !/^[0-9a-f]{64}$/.test(sha)) return true; // not ours to judge: kept as before
      const read = this.read(join(dir, name), target, size, sha === 'pending' ? '' : sha, false);
      // A store file that does not read as a journal still counts (as before); an emptied one does not.
      return read.entries.length > 0 || (read.gen === 0 && !logged.has(this.rel(join(dir, name))) && !this.storedEmpty(join(dir, name)));
    });
  }

  /** Whether an older adops's content file reads as a journal with no entries (a tombstone). */
  private storedEmpty(file: string): boolean {
    try {
      const c = contentOf(JSON.parse(readStoreFile(file, WHAT) ?? 'null'));
      return c !== undefined && c.entries.length === 0;
    } catch {
      return false;
    }
  }

  /** @internal for SizeLock */
  readPending(target: string, size: number): { file: string; entries: JournalEntry[]; gen: number } {
    const file = this.file(target, size, '');
    return { file, ...this.read(file, target, size, '', true) };
  }

  /** @internal for SizeLock: the ids in this size's content files. */
  contentIds(target: string, size: number, names: readonly string[]): Set<string> {
    const ids = new Set<string>();
    for (const name of names) {
      const sha = name.slice(`${size}-`.length, -'.json'.length);
      if (/^[0-9a-f]{64}$/.test(sha)) for (const e of this.read(this.file(target, size, sha), target, size, sha, false).entries) ids.add(e.id);
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
    // No entry of this size exists (that is why it is unhashed): nothing to read, only where to write (after the last gen).
    const { target, size, journal } = this;
    const file = journal.contentFile(target, size, '');
    return new ContentSlot(journal, file, { v: 2, target, size, sha256: '', entries: [] }, journal.genOf(file, target, size, ''), [this.lock], {
      contentFile: (sha) => journal.contentFile(target, size, sha),
    });
  }

  /** This content's slot (its own lock too), with the size's pending entries that no content file names. */
  async content(sha256: string, o: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void } = {}): Promise<ContentSlot> {
    const slot = await this.journal.open(this.target, this.size, sha256, o);
    this.handedOn = true;
    const pending = this.journal.readPending(this.target, this.size);
    const known = this.journal.contentIds(this.target, this.size, this.names);
    await slot.withPending(pending, known, this.lock);
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

/** One content's entries under its lock: read once, every change written through (a record of the run's log). */
export class ContentSlot {
  private pendingFile: string | undefined;
  private pendingGen = 0;
  private pendingEntries: JournalEntry[] = [];

  constructor(
    private readonly journal: UploadJournal,
    private file: string,
    private readonly content: ContentFile,
    /** The gen of what `content` was read from: the next write is one more. */
    private gen: number,
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
  async withPending(pending: { file: string; entries: JournalEntry[]; gen: number }, known: Set<string>, sizeLock: Lock): Promise<void> {
    this.pendingFile = pending.file;
    this.pendingGen = pending.gen;
    this.locks.unshift(sizeLock);
    this.pendingEntries = pending.entries.filter((e) => !known.has(e.id) && !this.get(e.id));
    // A crash between a content file's write and the pending file's: the content file holds it.
    if (this.pendingEntries.length !== pending.entries.length) await this.savePending();
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
    await this.journal.write(this.pendingFile, { ...this.content, sha256: '', entries: this.pendingEntries }, ++this.pendingGen);
  }

  /**
   * The unhashed slot's content is now known (the PUT's hash, before its last
   * chunk leaves): its entries move to the content file, then the pending file empties.
   * Awaited before that chunk leaves, like put().
   */
  async settle(sha256: string): Promise<void> {
    if (!this.unhashed || this.content.sha256 !== '') return;
    const { file: pending, gen: pendingGen } = this;
    this.content.sha256 = sha256;
    this.file = this.unhashed.contentFile(sha256);
    // No entry of this content existed (the size was unseen); a record that emptied it may have.
    this.gen = this.journal.genOf(this.file, this.content.target, this.content.size, sha256);
    await this.save();
    if (pendingGen > 0) await this.journal.write(pending, { ...this.content, sha256: '', entries: [] }, pendingGen + 1);
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

  /** The content's whole state as the log's next record of it (no entries: emptied, so the size may stay unseen). */
  private async save(): Promise<void> {
    await this.journal.write(this.file, this.content, ++this.gen);
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
