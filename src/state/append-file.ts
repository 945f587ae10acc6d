// Appending to a file another program owns and reads afterwards (GitHub's
// $GITHUB_STEP_SUMMARY, read when the step ends): one write of the whole text
// through an O_APPEND descriptor, so two adops in the same step never
// interleave their lines, then fsync. The file is never replaced (a rename
// would lose what others wrote). A disk that refuses raises a LocalStateError
// naming the directory, as every write of the local store does.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { asStateError } from './errors.js';
import { FILE_MODE } from './durable-write.js';

export function appendDurably(file: string, text: string, what: string): void {
  const bytes = Buffer.from(text, 'utf8');
  try {
    const fd = openSync(file, 'a', FILE_MODE);
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw asStateError(err, file, what);
  }
}
