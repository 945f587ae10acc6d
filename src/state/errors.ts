// A write to the local store that the disk refused (full, read-only, a path
// through a regular file, no permission). It names the directory, says nothing
// was half-written, and is never "a bug in adops" nor blamed on the user's own
// file: cli/report.ts maps it to exit 1 with code `local_state_unwritable`.
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

export class LocalStateError extends Error {
  override readonly name = 'LocalStateError';
  readonly code = 'local_state_unwritable';
  constructor(
    /** The directory adops could not write in. */
    readonly dir: string,
    /** What was being kept (e.g. "the config file", "the upload journal"). */
    readonly what: string,
    /** errno code (ENOSPC, EROFS, ...). */
    readonly errno: string,
  ) {
    super(
      `cannot write ${what} in ${dir} (${errno}${errno === 'ENOSPC' ? ': the disk is full' : errno === 'EROFS' ? ': read-only file system' : ''}); nothing was half-written`,
    );
  }

  get hint(): string {
    return this.errno === 'ENOSPC' || this.errno === 'EDQUOT'
      ? `free some space on the disk that holds ${this.dir}, then run the same command again`
      : `make ${this.dir} writable (or point ADOPS_CONFIG_DIR at a writable directory), then run the same command again`;
  }
}

/** `err` as a LocalStateError when the disk refused a write at `path`; anything else unchanged. */
export function asStateError(err: unknown, path: string, what: string, isDir = false): unknown {
  if (err instanceof LocalStateError) return err;
  const code = errnoOf(err);
  if (!code || !DISK_REFUSALS.has(code)) return err;
  return new LocalStateError(isDir ? path : dirname(path), what, code);
}

/** Run a write; a refusal of the disk becomes a LocalStateError naming the directory. */
export function guardWrite<T>(path: string, what: string, write: () => T, isDir = false): T {
  try {
    return write();
  } catch (err) {
    throw asStateError(err, path, what, isDir);
  }
}
