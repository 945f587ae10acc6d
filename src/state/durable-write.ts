// The one way the local store writes a whole file: a temp file beside it
// (0600), fsync, rename over the old one, fsync of the directory. A reader sees
// the old file or the new one, never half of either; a disk that refuses the
// write (full, read-only) leaves the old file as it was, removes the temp file,
// and raises a LocalStateError naming the directory.
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  close,
  closeSync,
  fsync,
  fsyncSync,
  linkSync,
  mkdirSync,
  open,
  openSync,
  rename,
  renameSync,
  statSync,
  unlinkSync,
  write,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { dirname, resolve } from 'node:path';
import { asStateError, errnoOf, LocalStateError } from './errors.js';

export const FILE_MODE = 0o600;

const openAsync = promisify(open);
/** fs.write through its callback (promisify would type the string form only by a cast). */
const writeAsync = (fd: number, text: string): Promise<void> => new Promise((resolve, reject) => write(fd, text, (err) => (err ? reject(err) : resolve())));
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);
const renameAsync = promisify(rename);
export const DIR_MODE = 0o700;

/**
 * Create `dir` (and its missing parents) 0700; with `fixMode`, force 0700 on a directory that pre-existed looser.
 * The one way the store makes directories (never `mkdir { recursive: true }`: see makeDirs).
 */
export function ensureDir(dir: string, what: string, fixMode = false): void {
  try {
    makeDirs(dir);
    if (fixMode) chmodSync(dir, DIR_MODE);
  } catch (err) {
    // ENOENT from mkdir under a parent that exists: a file system that makes no directories (/proc, /sys).
    throw errnoOf(err) === 'ENOENT' ? LocalStateError.unwritable(dir, what, 'ENOENT') : asStateError(err, dir, what, true);
  }
}

/**
 * `mkdir -p`, one level at a time: at most one stat and one mkdir per component of the path. Node's
 * `mkdirSync(dir, { recursive: true })` loops for ever, synchronously (no signal handler runs: SIGTERM
 * is not heard), where mkdir answers ENOENT under a parent that exists, as /proc does: it makes the
 * parent again and retries, without end. Here a refusal of any level ends it, with the errno of that
 * level (ENOENT there; ENOTDIR when a file, not a directory, has the name).
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ;) {
    const kind = statKind(d);
    if (kind === 'dir') break;
    if (kind === 'other') throw Object.assign(new Error(`${d} is not a directory`), { code: 'ENOTDIR' });
    missing.push(d);
    const parent = dirname(d);
    if (parent === d) break;
    d = parent;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: DIR_MODE });
    } catch (err) {
      // Made meanwhile by another run: fine when it is a directory.
      if (errnoOf(err) === 'EEXIST' && statKind(d) === 'dir') continue;
      throw errnoOf(err) === 'EEXIST' ? Object.assign(new Error(`${d} is not a directory`), { code: 'ENOTDIR' }) : err;
    }
  }
}

function statKind(path: string): 'dir' | 'other' | 'absent' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT') return 'absent';
    throw err;
  }
}

/**
 * `durable: false` (a cache, rebuilt at will): atomic still, without the fsyncs. `exclusive`: never
 * over an existing file (a hard link of the temp file, which fails with EEXIST, instead of a rename).
 */
export function writeDurably(file: string, text: string, what: string, o: { durable?: boolean; exclusive?: boolean } = {}): void {
  const durable = o.durable !== false;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'w', FILE_MODE);
    try {
      writeSync(fd, text);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (o.exclusive === true) {
      linkSync(temp, file);
      removeQuietly(temp);
    } else renameSync(temp, file);
  } catch (err) {
    removeQuietly(temp);
    throw asStateError(err, file, what);
  }
  if (!durable) return;
  try {
    const dirFd = openSync(dirname(file), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    /* some file systems refuse a directory fsync; the file itself is synced */
  }
}

/** Remove a file of the store; absent is fine, a refusal of the disk names the directory. */
export function removeFile(file: string, what: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') throw asStateError(err, file, what);
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* never created, or already gone */
  }
}

/**
 * Runs `work` so that every caller arriving while one run is in progress
 * shares the NEXT run (one run for all of them): the shape of a group commit.
 */
class GroupCommit {
  /** The run that will serve callers arriving from now on (not started yet). */
  private next: Promise<void> | undefined;
  private running: Promise<void> = Promise.resolve();
  constructor(private readonly work: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.next) return this.next;
    const mine: Promise<void> = this.running
      .catch(() => undefined)
      .then(() => {
        // Started: whoever comes now needs what happens after this point, so the run after this one.
        if (this.next === mine) this.next = undefined;
        return this.work();
      });
    this.next = mine;
    this.running = mine;
    return mine;
  }
}

/** One directory fsync at a time per directory, shared by every rename made in it meanwhile. */
const dirSyncs = new Map<string, GroupCommit>();
function syncDir(dir: string): Promise<void> {
  let g = dirSyncs.get(dir);
  if (!g)
    dirSyncs.set(
      dir,
      (g = new GroupCommit(async () => {
        try {
          const fd = await openAsync(dir, 'r');
          try {
            await fsyncAsync(fd);
          } finally {
            await closeAsync(fd);
          }
        } catch {
          /* some file systems refuse a directory fsync; the file itself is synced */
        }
      })),
    );
  return g.run();
}

/**
 * writeDurably without blocking the event loop, for writes made by many tasks
 * at once (an upload journal under --concurrency): the file fsyncs run side by
 * side (the file system commits them together), and the renames in one
 * directory share one directory fsync. On disk when the promise resolves.
 */
export async function writeDurablyAsync(file: string, text: string, what: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // The callback API through promisify: a FileHandle per write costs about twice as much here.
    const fd = await openAsync(temp, 'w', FILE_MODE);
    try {
      await writeAsync(fd, text);
      await fsyncAsync(fd);
    } finally {
      await closeAsync(fd);
    }
    await renameAsync(temp, file);
  } catch (err) {
    removeQuietly(temp);
    throw asStateError(err, file, what);
  }
  await syncDir(dirname(file));
}

/** An fsync on the loop slower than this sends the rest of its log's fsyncs to the thread pool (AppendLog). */
export const SLOW_LOOP_FSYNC_MS = 10;

/**
 * An append-only file of the store kept open for a run (a journal of NDJSON
 * lines). `commit()` is a GROUP COMMIT: every line appended before it is
 * written and fsynced in one go, and callers that arrive while an fsync runs
 * share the next one. So N rows in flight pay about one fsync, not N, and a
 * line is still on disk before the step it announces (the caller awaits the
 * commit before that step). `flushSync()` writes and fsyncs what is left
 * (the end of a run, or a line that must land at once).
 *
 * Where the commit's fsync runs is the caller's choice (`fsyncOnLoop`):
 * - in libuv's thread pool (the default), so the loop goes on while the disk
 *   works and callers arriving meanwhile share the next fsync: the upload
 *   journal, whose records come one step of one file at a time from 8 files
 *   in flight;
 * - on the loop, when the caller already groups its lines (the journal of
 *   `mutations apply`: one commit per batch of keys, one per 25 ms of answers),
 *   so nobody would share it: a round trip through the pool cost ~145 µs of
 *   CPU per fsync here against ~73 on the loop (waking a pool thread and being
 *   woken back, on a VM), and 5 % of a 20,000-row apply's CPU (docs/performance.md,
 *   "#37 (session 14)"). The loop waits for the disk meanwhile: 0.5 ms at the
 *   median here, 3 ms at the 99th percentile. A slower disk (one fsync past
 *   `slowFsyncMs`, a network file system say) would stall the run on every
 *   commit, so from then on the log's fsyncs go to the pool.
 */
export class AppendLog {
  private fd: number | undefined;
  private buffered: string[] = [];
  private readonly group = new GroupCommit(() => this.write());
  private onLoop: boolean;
  private readonly slowFsyncMs: number;

  constructor(
    readonly file: string,
    private readonly what: string,
    opts: { fsyncOnLoop?: boolean; slowFsyncMs?: number } = {},
  ) {
    this.onLoop = opts.fsyncOnLoop ?? false;
    this.slowFsyncMs = opts.slowFsyncMs ?? SLOW_LOOP_FSYNC_MS;
  }

  /** Whether the next commit's fsync runs on the loop (false from the first slow one on). */
  get fsyncsOnLoop(): boolean {
    return this.onLoop;
  }

  /** Buffered: on disk with the next commit() or flushSync(). */
  append(line: string): void {
    this.buffered.push(line);
  }

  commit(): Promise<void> {
    return this.group.run();
  }

  private async write(): Promise<void> {
    const text = this.buffered.splice(0).join('');
    if (text === '') return;
    try {
      const fd = this.open();
      // Written here, synchronously (a small write to the page cache, ~10 µs: a thread-pool round trip cost
      // more); only the fsync, the wait for the disk, goes to the pool. The caller still awaits that fsync.
      appendFileSync(fd, text);
      if (this.onLoop) {
        const started = performance.now();
        fsyncSync(fd);
        if (performance.now() - started > this.slowFsyncMs) this.onLoop = false;
      } else await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      throw asStateError(err, this.file, this.what);
    }
  }

  flushSync(): void {
    const text = this.buffered.splice(0).join('');
    if (text === '') return;
    try {
      const fd = this.open();
      appendFileSync(fd, text);
      fsyncSync(fd);
    } catch (err) {
      throw asStateError(err, this.file, this.what);
    }
  }

  private open(): number {
    return (this.fd ??= openSync(this.file, 'a', FILE_MODE));
  }

  /** Writes what is left, then closes the file. */
  close(): void {
    try {
      this.flushSync();
    } finally {
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
