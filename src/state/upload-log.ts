// A run's write-ahead log of the upload journal (#37). Where a run used to
// rewrite a content file for each step (temp file, fsync, rename, directory
// fsync: two durable writes per file of a folder), it appends one NDJSON
// record to its own log, and the records of the files in flight share one
// fsync (AppendLog's group commit). A record is still on disk before the step
// it announces: the caller awaits its commit.
//
// Record: {"file":"<scope>/<size>-<sha256|pending>.json","gen":N,"content":{…}}
// one line, the content's WHOLE state after the change (ContentFile; no
// entries: the content file is gone). Of a store file and the records of every
// log, the highest `gen` wins (upload-entry.ts).
//
// Every reader reads the logs before the store file (so a log folded into the
// store and deleted meanwhile is seen in one or the other), the live runs' as
// well as the dead ones': folding (upload-fold.ts) only compacts, it is never
// needed to be right. A log is read incrementally (offset of its last whole
// line); a last line without its newline is a record torn by a kill mid-write,
// never acted on, so it is skipped, as is any line that does not parse.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { printableJson } from '../client/json.js';
import { AppendLog, ensureDir } from './durable-write.js';
import { errnoOf } from './errors.js';
import { tryLock, type Lock } from './lock.js';
import { contentOf, type ContentFile } from './upload-entry.js';

export const RUNS_DIR = 'runs';
export const LOG_SUFFIX = '.log.ndjson';
const WHAT = 'the upload journal';

export interface LogRecord {
  /** The content file, relative to the store's root (`uploads/`). */
  file: string;
  gen: number;
  content: ContentFile;
}

/** One line of a log as a record; undefined for anything else (a torn or foreign line). */
export function recordOf(line: string): LogRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || !('file' in v) || !('gen' in v) || !('content' in v)) return undefined;
  const content = contentOf(v.content);
  if (typeof v.file !== 'string' || typeof v.gen !== 'number' || !content) return undefined;
  return { file: v.file, gen: v.gen, content };
}

/** The newest record of each file among `text`'s whole lines, and how many bytes those lines take. */
export function latestOf(text: string, into = new Map<string, LogRecord>()): { latest: Map<string, LogRecord>; used: number } {
  const end = text.lastIndexOf('\n') + 1;
  for (const line of text.slice(0, end).split('\n')) {
    const r = line ? recordOf(line) : undefined;
    if (r && r.gen >= (into.get(r.file)?.gen ?? -1)) into.set(r.file, r);
  }
  return { latest: into, used: Buffer.byteLength(text.slice(0, end)) };
}

/** Bytes of `file` from `offset` on (a log read incrementally); undefined when it is gone. */
function readFrom(file: string, offset: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return '';
    const buf = Buffer.allocUnsafe(size - offset); // filled to the read length only
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, offset));
  } finally {
    closeSync(fd);
  }
}

/** The names of the logs in `runs` (none when it does not exist yet); `.lock`: their locks'. */
export function logNames(runs: string, suffix = LOG_SUFFIX): string[] {
  try {
    return readdirSync(runs).filter((n) => n.endsWith(suffix));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return [];
    throw err;
  }
}

/**
 * This run's log (made at its first record, with a lock that says the run is alive) and what
 * every other log holds, as far as this run has read them.
 */
export class RunLogs {
  readonly runs: string;
  private own: { name: string; log: AppendLog; lock: Lock } | undefined;
  private readonly mine = new Map<string, LogRecord>();
  private readonly others = new Map<string, { offset: number; latest: Map<string, LogRecord> }>();

  constructor(readonly root: string) {
    this.runs = join(root, RUNS_DIR);
  }

  /** This run's log's name, once it has one. */
  get ownName(): string | undefined {
    return this.own?.name;
  }

  /** The logs in the runs directory now. */
  names(): string[] {
    return logNames(this.runs);
  }

  /** The logs' locks in the runs directory now. */
  lockNames(): string[] {
    return logNames(this.runs, `${LOG_SUFFIX}.lock`);
  }

  /** Appended now, on disk when the promise resolves (one fsync shared by every record appended meanwhile). */
  write(record: LogRecord): Promise<void> {
    const own = this.ownLog();
    this.mine.set(record.file, record);
    own.log.append(printableJson(record) + '\n');
    return own.log.commit();
  }

  private ownLog() {
    if (this.own) return this.own;
    ensureDir(this.runs, WHAT);
    const name = `${process.pid}-${randomBytes(6).toString('hex')}${LOG_SUFFIX}`;
    // The lock first: a log without a live lock is a dead run's, for any other run to fold.
    const lock = tryLock(join(this.runs, `${name}.lock`), { what: 'adops upload (its journal log)' });
    if (!lock) throw new Error(`the new log ${name} is locked already`);
    this.own = { name, log: new AppendLog(join(this.runs, name), WHAT), lock };
    return this.own;
  }

  /**
   * The newest record of `file` in any log, every other log read up to its end first; with
   * `asRead`, as far as the last read went (a look: see UploadJournal.peek).
   */
  latest(file: string, asRead = false): LogRecord | undefined {
    if (!asRead) this.refresh();
    let best = this.mine.get(file);
    for (const o of this.others.values()) {
      const r = o.latest.get(file);
      if (r && r.gen > (best?.gen ?? -1)) best = r;
    }
    return best;
  }

  /** The newest record of every file under `dir` (relative) whose name starts with `prefix`. */
  latestUnder(dir: string, prefix: string): Map<string, LogRecord> {
    this.refresh();
    const found = new Map<string, LogRecord>();
    const start = `${dir}/${prefix}`;
    for (const latest of [this.mine, ...[...this.others.values()].map((o) => o.latest)])
      for (const [file, r] of latest) if (file.startsWith(start) && r.gen > (found.get(file)?.gen ?? -1)) found.set(file, r);
    return found;
  }

  /** Whether a log other than `except` (this run's included) holds a record of `file`. */
  mentionedElsewhere(file: string, except: string): boolean {
    this.refresh();
    if (this.own?.name !== except && this.mine.has(file)) return true;
    for (const [name, o] of this.others) if (name !== except && o.latest.has(file)) return true;
    return false;
  }

  /**
   * Reads what other logs appended since the last look. A log gone from the directory was
   * folded: the store has its records now, so what was read of it is dropped.
   */
  private refresh(): void {
    const names = logNames(this.runs);
    const present = new Set(names);
    for (const name of this.others.keys()) if (!present.has(name)) this.others.delete(name);
    for (const name of names) {
      if (name === this.own?.name) continue;
      const seen = this.others.get(name) ?? { offset: 0, latest: new Map<string, LogRecord>() };
      this.others.set(name, seen);
      const text = readFrom(join(this.runs, name), seen.offset);
      if (!text) continue;
      seen.offset += latestOf(text, seen.latest).used;
    }
  }

  /** Writes what is left, closes the log; its lock is freed by release(). */
  close(): void {
    this.own?.log.close();
  }

  /** After the fold: the lock freed, and the records forgotten (the store has them; a later write starts a new log). */
  releaseLock(): void {
    this.own?.lock.release();
    this.own = undefined;
    this.mine.clear();
  }
}
