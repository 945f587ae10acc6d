// How the store reads one of its files back. Absent is undefined (nothing kept
// yet). Any other failure is a LocalStateError naming the file (unreadable:
// permissions, a directory where the file should be), never a crash and never
// "absent": a config read as absent would be written over, a journal read as
// absent would have its work done twice. Caches, which may be lost at will,
// read for themselves and treat everything as a miss.
import { readFileSync } from 'node:fs';
import { errnoOf, LocalStateError } from './errors.js';

export function readStoreFile(file: string, what: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = errnoOf(err);
    // ENOTDIR: a path through a regular file holds no file (a write there is refused, naming the directory).
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code !== undefined) throw LocalStateError.unreadable(file, what, code);
    throw err;
  }
}
