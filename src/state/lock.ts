// An exclusive lock on a piece of local state (the config file, a mutation
// journal, one upload journal entry) shared by every adops process that uses the same config dir
// or file: CI runners share a home directory and people open a second
// terminal. The lock is a file created with O_EXCL holding its holder's pid,
// host and start time, so a waiting run can say who holds it.
//
// Stale locks (a holder killed with -9, a machine that rebooted): on the same
// host a holder whose pid is gone is stale at once; any holder whose lock file
// has not been touched for `staleMs` is stale too (a live holder touches it
// every staleMs/3; this also covers a pid reused by another program and a
// holder on another host sharing the directory). A stale lock is taken over by
// renaming it aside first (atomic: of two runs taking over, one wins) and
// checking that what was moved is the very lock judged stale.
import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { codeOf } from '../client/errors.js';
import { isRecord } from '../client/json.js';
import { realRetryDeps } from '../client/retry.js';
import { asStateError } from './errors.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** Epoch ms when it was taken. */
  since: number;
  /** What holds it, for messages (e.g. "adops mutations apply"). */
  what?: string;
  token: string;
}

export interface LockOptions {
  /** Wait for a live holder (true) or fail at once with LockHeldError (false). */
  wait: boolean;
  /** Called once when the lock is found held by a live run and we start waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  signal?: AbortSignal;
  what?: string;
  staleMs?: number;
  pollMs?: number;
  /**
   * Every lock this process takes in the lock's directory is a hard link to ONE holder file of the
   * process (made once, removed at exit), not a file of its own (#27). For a caller that takes many
   * locks in one directory (the upload journal: one per file of a folder): a new file is an inode
   * to allocate, which cost 0.75 ms of system time per file on the CI machine's ext4 (a link,
   * ~0.02 ms). What a waiter reads is the same, except that `since` is when the process first
   * locked something in that directory.
   */
  sharedHolder?: boolean;
}

export interface Lock {
  readonly path: string;
  release(): void;
}

export const describeHolder = (h: LockHolder | undefined): string =>
  h ? `pid ${h.pid} on ${h.host}${h.what ? ` (${h.what})` : ''}, since ${new Date(h.since).toISOString()}` : 'a process that has not written its name yet';

export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  constructor(
    readonly path: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${path} is held by ${describeHolder(holder)}`);
  }
}

const DEFAULT_STALE_MS = 30_000;

/**
 * This machine's name, asked once per process (a `uname` system call each time otherwise: once per lock,
 * 306 in a sync of 300 files). Lazily: node:os is loaded on first use (lazy-crypto.test.ts).
 */
let host: string | undefined;
const thisHost = (): string => (host ??= hostname());

/** A holder of this process for a lock of its own (not a shared holder file): a token unique to the lock. */
const newHolder = (what: string | undefined): LockHolder => ({
  pid: process.pid,
  host: thisHost(),
  since: Date.now(),
  ...(what ? { what } : {}),
  token: randomUUID(),
});
/** A lock file with no readable holder yet is given this long to be written. */
const UNWRITTEN_GRACE_MS = 2_000;

function readHolder(path: string): LockHolder | undefined {
  try {
    const h: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isRecord(h) || typeof h.pid !== 'number' || typeof h.host !== 'string' || typeof h.token !== 'string') return undefined;
    return {
      pid: h.pid,
      host: h.host,
      since: typeof h.since === 'number' ? h.since : Number.NaN,
      token: h.token,
      ...(typeof h.what === 'string' ? { what: h.what } : {}),
    };
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return codeOf(err) === 'EPERM'; // exists, owned by someone else
  }
}

function isStale(path: string, holder: LockHolder | undefined, staleMs: number): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false; // gone meanwhile: the next attempt creates it
  }
  if (!holder) return age > UNWRITTEN_GRACE_MS;
  if (holder.host === thisHost() && !pidAlive(holder.pid)) return true;
  return age > staleMs;
}

/** Move a stale lock aside; put it back if what moved was a fresh lock taken meanwhile. */
function takeOver(path: string, judged: LockHolder | undefined): void {
  const aside = `${path}.stale-${process.pid}-${randomUUID().slice(0, 8)}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = readHolder(aside);
  if (judged && moved && moved.token !== judged.token) {
    try {
      linkSync(aside, path); // fails if yet another run created one: then that one holds it
    } catch {
      /* see above */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* already gone */
  }
}

/**
 * This process's holder files (sharedHolder), by directory and `what`: linked as each lock taken
 * there, and removed once none of those locks is held (so a run that holds nothing leaves nothing).
 */
interface SharedHolder {
  file: string;
  holder: LockHolder;
  /** Locks of this process linked to it right now. */
  held: number;
}
const holderFiles = new Map<string, SharedHolder>();
const swept = new Set<string>();
const HOLDER_MARK = '.adops-holder-';

/** The process's holder file for locks in `dir` (made when none is); `fresh`: make it again (someone removed it). */
function sharedHolder(dir: string, what: string | undefined, staleMs: number, fresh = false): SharedHolder {
  const key = `${dir}\n${what ?? ''}`;
  const known = holderFiles.get(key);
  if (known && !fresh) return known;
  if (!swept.has(dir)) {
    swept.add(dir);
    sweepHolders(dir, staleMs);
  }
  const holder = newHolder(what);
  const file = join(dir, `${HOLDER_MARK}${process.pid}-${holder.token.slice(0, 8)}`);
  writeHolder(file, holder, 'wx');
  // Locks still linked to a holder file removed under us keep its inode and count on its record.
  const made: SharedHolder = { file, holder, held: 0 };
  holderFiles.set(key, made);
  hookExit();
  return made;
}

/** One lock linked to `shared` was freed: its file goes when no other is held. */
function unlinked(shared: SharedHolder): void {
  if (--shared.held <= 0) dropHolder(shared);
}

function dropHolder(shared: SharedHolder): void {
  for (const [key, h] of holderFiles) if (h === shared) holderFiles.delete(key);
  removeQuietly(shared.file);
}

/**
 * Holder files left by runs that did not exit (kill -9, a crash): gone once not touched for
 * staleMs (a holder file in use is touched by the heartbeat of every lock linked to it, and one
 * removed while its run still lives is made again by that run's next lock), or at once for a dead
 * pid of this host.
 */
function sweepHolders(dir: string, staleMs: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(HOLDER_MARK));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(dir, name);
    const holder = readHolder(file);
    let age: number;
    try {
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue;
    }
    if (age > staleMs || (holder && holder.host === thisHost() && !pidAlive(holder.pid))) removeQuietly(file);
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}

/** A lock made as a link to this process's holder file for its directory; undefined when it exists. */
function tryLink(path: string, what: string | undefined, staleMs: number): SharedHolder | undefined | 'no links' {
  let shared = sharedHolder(dirname(path), what, staleMs);
  for (let attempt = 0; ; attempt++) {
    try {
      linkSync(shared.file, path);
      shared.held++;
      return shared;
    } catch (err) {
      const code = codeOf(err);
      if (code === 'EEXIST') {
        if (shared.held === 0) dropHolder(shared); // nothing of ours is linked to it: not left behind while we wait
        return undefined;
      }
      // Our holder file was removed (a sweep judged it stale while we held nothing there): make it again.
      if (code === 'ENOENT' && attempt === 0) {
        shared = sharedHolder(dirname(path), what, staleMs, true);
        continue;
      }
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return 'no links';
      throw asStateError(err, path, 'a lock file');
    }
  }
}

/**
 * Take the lock at `path` once: the holder it was taken with (and its shared file), or undefined when held.
 * `me()` is the holder of a lock file of its own, made on first need (a lock linked to a shared holder file
 * has that file's holder: no holder of its own to make).
 */
function tryTake(
  path: string,
  me: () => LockHolder,
  o: { what: string | undefined; sharedHolder?: boolean | undefined; staleMs: number },
): { holder: LockHolder; shared?: SharedHolder } | undefined {
  if (o.sharedHolder) {
    const linked = tryLink(path, o.what, o.staleMs);
    if (linked !== 'no links') return linked ? { holder: linked.holder, shared: linked } : undefined;
  }
  const holder = me();
  return tryCreate(path, holder) ? { holder } : undefined;
}

/** The same holder at every attempt of one lock (its token identifies the lock), made when first asked. */
function holderOnce(what: string | undefined): () => LockHolder {
  let me: LockHolder | undefined;
  return () => (me ??= newHolder(what));
}

/**
 * Create the lock with its holder already in it: the holder is written to a private temp file,
 * then hard-linked to the lock's name (link fails with EEXIST when the lock exists). A waiting run
 * therefore never reads a lock that has no holder yet (with O_EXCL then a write, it could, and said
 * "a process that has not written its name yet"). Where a file system has no hard links, the lock
 * is created with O_EXCL and written after.
 */
function tryCreate(path: string, holder: LockHolder): boolean {
  const temp = `${path}.new-${process.pid}-${randomUUID().slice(0, 8)}`;
  writeHolder(temp, holder, 'w');
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    const code = codeOf(err);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw asStateError(err, path, 'a lock file');
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
  }
  try {
    writeHolder(path, holder, 'wx');
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    throw err;
  }
  return true;
}

/**
 * The holder's line in a new file (`wx`: only if absent); a failed write leaves no file behind.
 * Not fsynced (#27: a synchronous fsync per acquire blocked the event loop, 664 ms of a 4.4 s
 * `assets sync` that locks per file). A lock needs exclusion, not durability: exclusion comes from
 * link()/O_EXCL, which every process on the machine sees at once through the page cache whether or
 * not the bytes reached the disk. Only a machine crash can lose them, and then no holder survives
 * either: an empty or missing lock file is judged stale after UNWRITTEN_GRACE_MS (isStale), as a
 * lock of a dead pid is at once. What the lock guards (journals, config) keeps its own fsyncs.
 */
function writeHolder(path: string, holder: LockHolder, flags: 'w' | 'wx'): void {
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') throw err;
    throw asStateError(err, path, 'a lock file');
  }
  try {
    writeSync(fd, JSON.stringify(holder) + '\n');
  } catch (err) {
    // A full disk: no half-written lock left behind for the next run to wait on.
    closeSync(fd);
    unlinkSync(path);
    throw asStateError(err, path, 'a lock file');
  }
  closeSync(fd);
}

/**
 * One attempt, never waiting (for a best-effort write such as a cache): the lock, or undefined
 * while a live run holds it. A stale lock is taken over, as acquireLock does.
 */
export function tryLock(path: string, opts: { what?: string; staleMs?: number; sharedHolder?: boolean } = {}): Lock | undefined {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const me = holderOnce(opts.what);
  for (let attempt = 0; attempt < 3; attempt++) {
    const took = tryTake(path, me, { what: opts.what, sharedHolder: opts.sharedHolder, staleMs });
    if (took) return held(path, took.holder, staleMs, took.shared);
    const holder = readHolder(path);
    if (!isStale(path, holder, staleMs)) return undefined;
    takeOver(path, holder);
  }
  return undefined;
}

export async function acquireLock(path: string, opts: LockOptions): Promise<Lock> {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const me = holderOnce(opts.what);
  let told = false;
  for (;;) {
    const took = tryTake(path, me, { what: opts.what, sharedHolder: opts.sharedHolder, staleMs });
    if (took) return held(path, took.holder, staleMs, took.shared);
    const holder = readHolder(path);
    if (isStale(path, holder, staleMs)) {
      takeOver(path, holder);
      continue;
    }
    if (!opts.wait) throw new LockHeldError(path, holder);
    if (!told) {
      told = true;
      opts.onWait?.(holder);
    }
    await realRetryDeps.sleep(opts.pollMs ?? 100, opts.signal);
  }
}

/** Locks this process holds; one exit handler frees them all (a handler per lock would trip MaxListeners). */
const HELD = new Set<() => void>();
let exitHooked = false;

function held(path: string, me: LockHolder, staleMs: number, shared?: SharedHolder): Lock {
  // Touch it while held, so a run on another host (or after pid reuse) can tell it is alive.
  const beat = setInterval(
    () => {
      try {
        utimesSync(path, new Date(), new Date());
      } catch {
        /* moved by a run that judged us stale: nothing to keep alive */
      }
    },
    Math.max(50, Math.floor(staleMs / 3)),
  );
  beat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    HELD.delete(release);
    // Only our own lock: never remove one another run took over.
    if (readHolder(path)?.token === me.token) {
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    }
    if (shared) unlinked(shared);
  };
  // A run ended by Ctrl-C or an error still frees it (a kill -9 leaves it: stale detection).
  HELD.add(release);
  hookExit();
  return { path, release };
}

/** At exit: every lock this process holds freed, then its holder files removed. */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const r of [...HELD]) r();
    for (const { file } of holderFiles.values()) removeQuietly(file);
    holderFiles.clear();
  });
}
