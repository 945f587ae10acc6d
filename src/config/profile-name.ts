// Profile names: they become keys of the config file, words on command lines
// and (for completion) part of a cache file name, so only a plain word is
// accepted. The same rule as `adops config set profile`.
import { ConfigError } from './errors.js';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new ConfigError(
      `"${name.replace(/[^\x20-\x7e]/g, '?')}" is not a profile name`,
      'usage',
      'profile names are up to 64 letters, digits, ".", "_" and "-", starting with a letter or digit',
      'usage_error',
    );
  }
  return name;
}
