// The config file: profiles (base URL + key) and settings, in one JSON file
// `config.json` inside the config dir. Reads go straight to the file (every
// start reads it; it must stay cheap). Every change is a read-modify-write
// under the config dir's lock (lock.ts): the file is read again from disk
// under the lock, the change is applied to what is there, and the result is
// written atomically (durable-write.ts). So two runs at once (8 logins to 8
// profiles, a login beside `config set`) each keep their own change. Each write
// forces 0600 on the file and 0700 on the directory, so modes that pre-existed
// looser are fixed.
import { chmodSync, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/errors.js';
import { DIR_MODE, ensureDir, FILE_MODE, writeDurably } from './durable-write.js';
import { parseConfig, type ConfigData, type Profile } from './config-shape.js';
import { guardWrite } from './errors.js';
import { readStoreFile } from './read-back.js';

export { DIR_MODE, FILE_MODE };
export { SETTING_KEYS, type ConfigData, type Profile, type SettingKey, type Settings } from './config-shape.js';
const CONFIG_FILE_NAME = 'config.json';
const WHAT = 'the config file';

export const DEFAULT_PROFILE = 'default';

/**
 * A profile by name, among the file's own keys only: `constructor`, `toString`
 * or `__proto__` are names like any other, never Object.prototype's members.
 */
export function ownProfile(data: ConfigData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

/** An environment variable set but empty never silently means "the default": it is a mistake to name. */
export function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const v = env[name];
  if (v === undefined) return undefined;
  if (v.trim() === '') {
    throw new ConfigError(
      `${name} is set but empty`,
      'usage',
      `give ${name} a value, or unset it (\`unset ${name}\`) to use the default`,
      'empty_environment_variable',
    );
  }
  return v;
}

/** ADOPS_CONFIG_DIR, else XDG_CONFIG_HOME/adops, else ~/.config/adops. */
export function configDir(env: Record<string, string | undefined>): string {
  const named = envValue(env, 'ADOPS_CONFIG_DIR');
  if (named) return named;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'adops');
}

export class ConfigStore {
  readonly dir: string;
  readonly file: string;
  private cache: ConfigData | undefined;

  constructor(dir: string) {
    this.dir = dir;
    this.file = join(dir, CONFIG_FILE_NAME);
  }

  /** The config as this run first read it (cached: one run sees one config). */
  read(): ConfigData {
    this.cache ??= this.readDisk();
    return this.cache;
  }

  /**
   * The file as it is on disk: absent or blank is an empty config; anything adops cannot use as it is
   * (unreadable, not JSON, JSON of another shape, a setting of the wrong type) is a LocalStateError
   * naming the file. Never read as empty: a write (config set, auth login) would then put a fresh file
   * over the one the user has to repair.
   */
  private readDisk(): ConfigData {
    const text = readStoreFile(this.file, WHAT);
    return text === undefined || text.trim() === '' ? { profiles: {}, settings: {} } : parseConfig(text, this.file);
  }

  /**
   * Apply `change` to the config as it is on disk now, under the config dir's
   * lock, and write it (0600 file, 0700 dir). Another run's change made since
   * this run started is kept: `change` is replayed on top of it.
   */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    ensureDir(this.dir, WHAT, true);
    const { acquireLock } = await import('./lock.js');
    const lock = await acquireLock(`${this.file}.lock`, { wait: true, what: 'adops (config file)', staleMs: 10_000, pollMs: 20 });
    try {
      const data = this.readDisk();
      change(data);
      this.writeLocked(data);
      return data;
    } finally {
      lock.release();
    }
  }

  private writeLocked(data: ConfigData): void {
    writeDurably(this.file, JSON.stringify(data, null, '\t') + '\n', WHAT);
    guardWrite(this.file, WHAT, () => {
      chmodSync(this.file, FILE_MODE);
      chmodSync(this.dir, DIR_MODE);
    });
    this.cache = data;
  }

  /** Modes as they are on disk (for doctor and tests); undefined when absent. */
  modes(): { dir?: number; file?: number } {
    const mode = (p: string) => (existsSync(p) ? statSync(p).mode & 0o777 : undefined);
    const dir = mode(this.dir);
    const file = mode(this.file);
    return { ...(dir !== undefined ? { dir } : {}), ...(file !== undefined ? { file } : {}) };
  }
}
