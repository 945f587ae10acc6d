// An installation that does not fit the running Node (a native module built for
// another Node major, or missing) is not "a bug in adops": say what is wrong and
// to reinstall under this Node. Exit 1 (docs/exit-codes.md "How failures map").
// Duck-typed so the CLI's error path never loads the sandbox.

export interface InstallProblem {
  code: string;
  message: string;
  hint: string;
}

const REINSTALL =
  'reinstall adops under this Node, as you installed it (the tarball or the git URL, README "Install"; in a checkout `npm ci` or `npm rebuild better-sqlite3`)';

export function installProblem(err: unknown): InstallProblem | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { code?: unknown; hint?: unknown };
  // Raised by the sandbox's store (src/sandbox/store/sqlite.ts) with its own sentence and remedy.
  if (e.name === 'SqliteUnavailableError' && typeof e.code === 'string' && typeof e.hint === 'string') {
    return { code: e.code, message: e.message, hint: e.hint };
  }
  const versions = /NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(e.message);
  if (versions) {
    return {
      code: 'native_module_mismatch',
      message: `a native module of adops was built for another Node version (NODE_MODULE_VERSION ${versions[1]}; this Node ${process.version} needs ${versions[2]})`,
      hint: REINSTALL,
    };
  }
  return undefined;
}
