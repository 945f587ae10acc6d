// Failures of the configuration (a profile name, a key, a profile that does
// not exist). Config knows nothing of exit codes: its errors say what kind of
// problem they are, and cli/report.ts maps the kind to the exit code.
export type ConfigErrorKind = 'usage' | 'auth';

export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
  constructor(
    message: string,
    /** usage: a wrong word on the command line (exit 2); auth: no usable key (exit 3). */
    readonly kind: ConfigErrorKind,
    readonly hint: string | undefined,
    /** Stable code for `--output json` errors, like the service's `error`. */
    readonly code: string,
  ) {
    super(message);
  }
}
