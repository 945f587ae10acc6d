// Reading a file the user named (--input, -F key=@file, `plans apply FILE`,
// `mutations apply FILE`): a failure is a usage error (exit 2) in a plain
// sentence with its remedy, never node's "EISDIR: illegal operation on a
// directory, read".
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';

/** The sentence for a file that could not be read; `what` names it as the user gave it. */
export function readProblem(what: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EISDIR':
      return new UsageError(`${what} is a directory, not a file`, 'name a file inside it');
    case 'ENOENT':
      return new UsageError(`${what} does not exist`, 'check the path (relative paths start from the current directory)');
    case 'EACCES':
    case 'EPERM':
      return new UsageError(`${what} cannot be read: permission denied`, "check the file's permissions");
    default: {
      // A system error is named by its code (EMFILE); anything else by its words: a library's code alone (csv-parse's
      // INVALID_OPENING_QUOTE was shown so, #37 session 13) says nothing to a person.
      const systemCode = err instanceof Error && 'syscall' in err ? code : undefined;
      return new UsageError(`${what} cannot be read (${systemCode ?? (err instanceof Error ? err.message : String(err))})`);
    }
  }
}

/** A file's text (UTF-8), or a UsageError from readProblem. */
export function readTextFile(path: string, what = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw readProblem(what, err);
  }
}
