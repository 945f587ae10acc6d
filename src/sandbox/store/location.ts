// Where the sandbox keeps its store when --data is not given: under the same
// name as the CLI's config (~/.config/adops): XDG_DATA_HOME/adops, else
// ~/.local/share/adops, on every platform as configDir does. Versions before
// #18 used env-paths('adops') ("adops-nodejs"); a store found only there is
// moved here once, the first time the sandbox opens it.
import { existsSync, mkdirSync, readdirSync, renameSync, cpSync, rmSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

export const STORE_FILE = 'sandbox.db';

export function dataDir(env: Env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'adops');
}

/** env-paths('adops').data, the directory used before #18. */
export function legacyDataDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'adops-nodejs');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'adops-nodejs', 'Data');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'adops-nodejs');
}

/**
 * Move the old directory's store (the file, its -wal/-shm, its uploaded files)
 * to `dataDir` when the new one has none. Returns a note for stderr, or undefined.
 */
export function moveLegacyData(env: Env): string | undefined {
  const from = legacyDataDir(env);
  const to = dataDir(env);
  if (from === to || !existsSync(join(from, STORE_FILE)) || existsSync(join(to, STORE_FILE))) return undefined;
  mkdirSync(to, { recursive: true });
  // The store file last: until it arrives, the new place holds no store and a rerun moves the rest again.
  const names = readdirSync(from)
    .filter((n) => n.startsWith(STORE_FILE))
    .sort((a, b) => (a === STORE_FILE ? 1 : b === STORE_FILE ? -1 : 0));
  for (const name of names) move(join(from, name), join(to, name));
  try {
    rmdirSync(from); // only if nothing else is left there
  } catch {
    // other files of the user's: left alone
  }
  return `adops sandbox: moved the sandbox's data from ${from} to ${to}`;
}

function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && err.code === 'EXDEV')) throw err;
    cpSync(from, to, { recursive: true });
    rmSync(from, { recursive: true, force: true });
  }
}
