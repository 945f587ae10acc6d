// Appending to a file another program owns and reads afterwards (GitHub's
// $GITHUB_STEP_SUMMARY, read when the step ends): one write of the whole text
// through an O_APPEND descriptor, so two adops in the same step never
// interleave their lines, then fsync. The file is never replaced (a rename
// would lose what others wrote). A disk that refuses raises a LocalStateError
// naming the directory, as every write of the local store does.
import { AppendLog } from './durable-write.js';

/** The whole text in one O_APPEND write, fsynced, the file closed: the journals' AppendLog, used once. */
export function appendDurably(file: string, text: string, what: string): void {
  const log = new AppendLog(file, what);
  log.append(text);
  log.close();
}
