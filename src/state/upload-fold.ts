// Folding a run's log into the upload journal's store (#37): the log's newest
// record of each content goes into its scope's store file (upload-store.ts)
// when it is newer (higher `gen`) than what the store holds; then the log is
// deleted. One durable write per scope the log touches (a sync: one), where it
// was one per content. Done under the store's lock (`uploads/fold.lock`, so two
// folds never interleave) at a run's clean end for its own log, and at the next
// run's start for the logs of runs that died (their lock is free: tryLock takes
// over a dead pid's at once).
//
// A content with no entries left is dropped from the store, unless another log
// still holds a record of it (or an older adops's own content file does): then
// an empty content (a tombstone with the higher gen) stays, so that record,
// older, is never read as current. A torn last line is skipped (latestOf): its
// step was never taken.
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from './durable-write.js';
import { errnoOf } from './errors.js';
import { acquireLock, tryLock } from './lock.js';
import { contentOf, genOf, type ContentFile } from './upload-entry.js';
import { latestOf, LOG_SUFFIX, type RunLogs } from './upload-log.js';
import { readStoreFile } from './read-back.js';
import { foldIntoStore, legacyContentNames } from './upload-store.js';

const WHAT = 'the upload journal';

/** The gen of an older adops's content file; -1 when unreadable as a journal (any record is newer). */
function legacyGen(file: string): number {
  let text: string | undefined;
  try {
    text = readStoreFile(file, WHAT);
  } catch {
    return -1;
  }
  if (text === undefined) return -1;
  try {
    const c = contentOf(JSON.parse(text));
    return c ? genOf(c) : -1;
  } catch {
    return -1;
  }
}

/** One scope's records into its store file. */
async function foldScope(logs: RunLogs, logName: string, scope: string, records: Map<string, { gen: number; content: ContentFile }>) {
  const dir = join(logs.root, scope);
  ensureDir(dir, WHAT);
  const legacy = legacyContentNames(dir);
  await foldIntoStore(dir, records, {
    legacyGen: (name) => (legacy.has(name) ? legacyGen(join(dir, name)) : 0),
    keepEmpty: (name) => legacy.has(name) || logs.mentionedElsewhere(`${scope}/${name}`, logName),
  });
}

/** Folds the log `name` of `logs.runs` (the caller holds the log's lock), then deletes it. */
async function foldHeld(logs: RunLogs, name: string): Promise<void> {
  const path = join(logs.runs, name);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw err;
  }
  const byScope = new Map<string, Map<string, { gen: number; content: ContentFile }>>();
  for (const r of latestOf(text).latest.values()) {
    const cut = r.file.lastIndexOf('/');
    const scope = r.file.slice(0, cut);
    const records = byScope.get(scope) ?? new Map<string, { gen: number; content: ContentFile }>();
    byScope.set(scope, records);
    records.set(r.file.slice(cut + 1), r);
  }
  const store = await acquireLock(join(logs.root, 'fold.lock'), { wait: true, what: 'adops upload (folding a journal log)' });
  try {
    // Side by side: the scopes' store files fsync together.
    await Promise.all([...byScope].map(([scope, records]) => foldScope(logs, name, scope, records)));
    unlinkSync(path);
  } finally {
    store.release();
  }
}

/** This run's own log, at its clean end: folded, then its lock freed. */
export async function foldOwn(logs: RunLogs): Promise<void> {
  const name = logs.ownName;
  if (!name) return;
  logs.close();
  await foldHeld(logs, name);
  logs.releaseLock(); // not when the fold failed: the log stays locked (alive) until this process exits
}

/** Locks of runs that died before their log's first record: freed (tryLock takes a dead pid's over). */
function sweepLocks(logs: RunLogs): void {
  const names = new Set(logs.names());
  for (const lock of logs.lockNames()) {
    if (names.has(lock.slice(0, -'.lock'.length))) continue;
    tryLock(join(logs.runs, lock))?.release();
  }
}

/** The logs of runs that died (their lock taken at once): folded. A live run's log is left to it. */
export async function foldDead(logs: RunLogs): Promise<number> {
  sweepLocks(logs);
  let folded = 0;
  for (const name of logs.names()) {
    if (name === logs.ownName || !name.endsWith(LOG_SUFFIX)) continue;
    const lock = tryLock(join(logs.runs, `${name}.lock`), { what: 'adops upload (folding a journal log)' });
    if (!lock) continue;
    try {
      await foldHeld(logs, name);
      folded++;
    } finally {
      lock.release();
    }
  }
  return folded;
}
