// The config file: profiles (base URL + key) and settings, in one JSON file
// `config.json` inside the config dir. Reads go straight to the file with fs
// (conf pulls in a JSON-schema validator, too slow for every start); writes go
// through conf (atomic write, configFileMode 0600) and we then force 0600 on
// the file and 0700 on the directory on EVERY write, so a file or directory
// that pre-existed with looser modes is fixed.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
export const CONFIG_FILE_NAME = 'config.json';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** Organization name, when we learned it (e.g. from the sandbox's demo keys). */
  organization?: string;
}

/** Settings that are not per profile; keys match `adops config get|set`. */
export interface Settings {
  output?: string;
  'request-timeout'?: number;
  'connect-timeout'?: number;
  retries?: number;
  'retry-budget'?: number;
}

/** Keys `adops config get|set|list` knows: settings, plus `base-url` and `profile` which live elsewhere. */
export const SETTING_KEYS = ['output', 'request-timeout', 'connect-timeout', 'retries', 'retry-budget'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
  settings: Settings;
}

export const DEFAULT_PROFILE = 'default';

/** ADOPS_CONFIG_DIR, else XDG_CONFIG_HOME/adops, else ~/.config/adops. */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.ADOPS_CONFIG_DIR) return env.ADOPS_CONFIG_DIR;
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

  read(): ConfigData {
    if (this.cache) return this.cache;
    let data: Partial<ConfigData> = {};
    if (existsSync(this.file)) {
      const text = readFileSync(this.file, 'utf8');
      try {
        data = text.trim() ? (JSON.parse(text) as Partial<ConfigData>) : {};
      } catch {
        throw new Error(`config file ${this.file} is not valid JSON; fix or delete it`);
      }
    }
    this.cache = { profiles: data.profiles ?? {}, settings: data.settings ?? {}, ...(data.currentProfile ? { currentProfile: data.currentProfile } : {}) };
    return this.cache;
  }

  /** Apply `change` to a copy of the data and write it (0600 file, 0700 dir). */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    const data = structuredClone(this.read());
    change(data);
    await this.write(data);
    return data;
  }

  async write(data: ConfigData): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    chmodSync(this.dir, DIR_MODE);
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigData>({
      cwd: this.dir,
      configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
      projectName: 'adops',
      configFileMode: FILE_MODE,
      clearInvalidConfig: false,
    });
    conf.store = data;
    chmodSync(this.file, FILE_MODE);
    chmodSync(this.dir, DIR_MODE);
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
