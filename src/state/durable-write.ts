// The one way the local store writes a whole file: a temp file beside it
// (0600), fsync, rename over the old one, fsync of the directory. A reader sees
// the old file or the new one, never half of either; a disk that refuses the
// write (full, read-only) leaves the old file as it was, removes the temp file,
// and raises a LocalStateError naming the directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { asStateError, errnoOf } from './errors.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Create `dir` (and its parents) 0700; with `fixMode`, force 0700 on a directory that pre-existed looser. */
export function ensureDir(dir: string, what: string, fixMode = false): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    if (fixMode) chmodSync(dir, DIR_MODE);
  } catch (err) {
    throw asStateError(err, dir, what, true);
  }
}

/** `durable: false` (a cache, rebuilt at will): atomic still, without the fsyncs. */
export function writeDurably(file: string, text: string, what: string, o: { durable?: boolean } = {}): void {
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
    renameSync(temp, file);
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
