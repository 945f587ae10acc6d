// What the config file holds, and the check of a file read back against it.
// A file adops cannot use as it is (not JSON, JSON of another shape, a setting
// of the wrong type) is a LocalStateError naming the file and the first thing
// wrong; the store then writes nothing over it. Keys adops does not know (a
// newer adops's, at any level) are kept as they are and written back.
import { LocalStateError } from './errors.js';

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

const WHAT = 'the config file';
const PROFILE_FIELDS = ['baseUrl', 'apiKey', 'organization'] as const;
/** The numeric settings as `adops config set` takes them: a number of 0 or more (retries: a whole one). */
const NUMBER_SETTINGS = ['request-timeout', 'connect-timeout', 'retries', 'retry-budget'] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
/** `profiles.work`, or `profiles["my profile"]` for a name that is not a plain word. */
const member = (path: string, key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** The config in `text` (read from `file`), checked; a LocalStateError (local_state_corrupt) naming the first problem. */
export function parseConfig(text: string, file: string): ConfigData {
  const corrupt = (problem: string) =>
    LocalStateError.corrupt(
      file,
      WHAT,
      problem,
      `fix it by hand, or move it aside (mv ${file} ${file}.bad) and log in again; until then adops writes nothing over it`,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // The parser's message quotes the text (a key may be in it): only where it stopped.
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : '');
    throw corrupt(`is not JSON${at ? ` (${lineColumn(text, Number(at[1]))})` : ''}`);
  }
  const wrong: Wrong = (path, wanted, value) => corrupt(`is JSON of the wrong shape: ${path} must be ${wanted} (it is ${kindOf(value)})`);
  if (!isObject(data)) throw wrong('the whole file', 'an object', data);
  const { currentProfile, profiles = {}, settings = {} } = data;
  if (currentProfile !== undefined && typeof currentProfile !== 'string') throw wrong('currentProfile', 'a string', currentProfile);
  checkProfiles(profiles, wrong);
  checkSettings(settings, wrong, corrupt);
  // Checked field by field: what a newer adops added passes through untouched.
  return { ...data, profiles, settings, ...(currentProfile !== undefined ? { currentProfile } : {}) };
}

type Wrong = (path: string, wanted: string, value: unknown) => LocalStateError;

function checkProfiles(profiles: unknown, wrong: Wrong): asserts profiles is Record<string, Profile> {
  if (!isObject(profiles)) throw wrong('profiles', 'an object of profiles by name', profiles);
  for (const [name, profile] of Object.entries(profiles)) {
    const at = member('profiles', name);
    if (!isObject(profile)) throw wrong(at, 'an object', profile);
    for (const field of PROFILE_FIELDS)
      if (profile[field] !== undefined && typeof profile[field] !== 'string') throw wrong(`${at}.${field}`, 'a string', profile[field]);
  }
}

function checkSettings(settings: unknown, wrong: Wrong, corrupt: (problem: string) => LocalStateError): asserts settings is Settings {
  if (!isObject(settings)) throw wrong('settings', 'an object', settings);
  if (settings.output !== undefined && typeof settings.output !== 'string') throw wrong('settings.output', 'a string', settings.output);
  for (const key of NUMBER_SETTINGS) {
    const v = settings[key];
    if (v === undefined) continue;
    if (typeof v !== 'number') throw wrong(`settings.${key}`, 'a number', v);
    // As `adops config set` takes them; a negative budget or a fractional count means nothing.
    if (!(v >= 0) || (key === 'retries' && !Number.isInteger(v)))
      throw corrupt(`has a setting out of range: settings.${key} must be ${key === 'retries' ? 'a whole number' : 'a number'} of 0 or more`);
  }
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}
