// A file of the local store adops cannot use: a write the disk refused (full,
// read-only, a path through a regular file, no permission), a read the disk
// refused (permissions, a directory where the file should be), or a file whose
// content is not what adops writes (not JSON, JSON of another shape). It names
// the file or directory and says what is wrong; nothing is written over it.
// Never "a bug in adops" nor blamed on the user's own file: cli/report.ts maps
// it by its code: `local_state_unwritable` and `local_state_unreadable` (the
// disk's doing) exit 1, `local_state_corrupt` (a config file to fix, as a bad
// flag is) exits 2.
import { dirname } from 'node:path';

/** The errno code of a failed file call ('ENOENT'), if any. (Not client/errors' codeOf: the config store is read on the fast path, which loads no client.) */
export function errnoOf(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/** errno codes that mean "the disk will not take this write", as opposed to a bug of ours. */
const DISK_REFUSALS = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EIO',
  'EFBIG',
  'EMFILE',
  'ENFILE',
  'ELOOP',
  'ENAMETOOLONG',
  'EISDIR',
]);

/** What an errno means here, for the message (the code alone says little to most people). */
const MEANING: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EISDIR: 'a directory is where the file should be',
  ENOTDIR: 'a file is where a directory should be',
  ENOENT: 'the file system will not make a directory there',
  EIO: 'input/output error',
};
const withMeaning = (errno: string) => (MEANING[errno] ? `${errno}: ${MEANING[errno]}` : errno);

export type LocalStateCode = 'local_state_unwritable' | 'local_state_unreadable' | 'local_state_corrupt';

export class LocalStateError extends Error {
  override readonly name = 'LocalStateError';
  private constructor(
    readonly code: LocalStateCode,
    message: string,
    /** What to do about it. */
    readonly hint: string,
    /** The directory adops could not write in, or the file it could not read. */
    readonly path: string,
    /** errno code (ENOSPC, EISDIR, ...); undefined for a file whose content is wrong. */
    readonly errno: string | undefined,
  ) {
    super(message);
  }

  /** A write the disk refused in `dir` (what was being kept: "the config file", "the upload journal"). */
  static unwritable(dir: string, what: string, errno: string): LocalStateError {
    const hint =
      errno === 'ENOSPC' || errno === 'EDQUOT'
        ? `free some space on the disk that holds ${dir}, then run the same command again`
        : errno === 'ENOENT'
          ? `point ADOPS_CONFIG_DIR at a directory of an ordinary file system (not /proc or /sys), then run the same command again`
          : `make ${dir} writable (or point ADOPS_CONFIG_DIR at a writable directory), then run the same command again`;
    return new LocalStateError('local_state_unwritable', `cannot write ${what} in ${dir} (${withMeaning(errno)}); nothing was half-written`, hint, dir, errno);
  }

  /** A read the disk refused: the file is there (not ENOENT) and cannot be read. */
  static unreadable(file: string, what: string, errno: string): LocalStateError {
    const hint =
      errno === 'EISDIR'
        ? `move ${file} aside (it is a directory); adops writes nothing over it`
        : `make ${file} readable by this user (or point ADOPS_CONFIG_DIR at another directory); adops writes nothing over it`;
    return new LocalStateError('local_state_unreadable', `cannot read ${what} ${file} (${withMeaning(errno)})`, hint, file, errno);
  }

  /** A file whose content is not what adops writes; `problem` says what is wrong ("is not JSON"). */
  static corrupt(file: string, what: string, problem: string, hint: string): LocalStateError {
    return new LocalStateError('local_state_corrupt', `${what} ${file} ${problem}`, hint, file, undefined);
  }
}

/** `err` as a LocalStateError when the disk refused a write at `path`; anything else unchanged. */
export function asStateError(err: unknown, path: string, what: string, isDir = false): unknown {
  if (err instanceof LocalStateError) return err;
  const code = errnoOf(err);
  if (!code || !DISK_REFUSALS.has(code)) return err;
  return LocalStateError.unwritable(isDir ? path : dirname(path), what, code);
}

/** Run a write; a refusal of the disk becomes a LocalStateError naming the directory. */
export function guardWrite<T>(path: string, what: string, write: () => T, isDir = false): T {
  try {
    return write();
  } catch (err) {
    throw asStateError(err, path, what, isDir);
  }
}
