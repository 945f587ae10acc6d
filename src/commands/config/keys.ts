// The keys of `adops config get|set|list`: where each lives and how a value is checked.
import { checkBaseUrl } from '../../client/origin.js';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { isOneOf } from '../../cli/known-words.js';
import { OUTPUT_FORMATS } from '../../cli/output/format.js';
import { ownProfile, SETTING_KEYS, type ConfigData, type SettingKey } from '../../state/config-store.js';

export const CONFIG_KEYS = ['base-url', 'profile', ...SETTING_KEYS] as const;

export function checkKey(key: string): void {
  if (!isOneOf(CONFIG_KEYS, key)) throw new UsageError(`unknown config key "${key}"`, `known keys: ${CONFIG_KEYS.join(', ')}`);
}

export function readValue(ctx: CommandContext, key: string): { value: unknown; source: string } {
  const a = ctx.auth();
  if (key === 'base-url') return { value: a.baseUrl, source: a.baseUrlSource };
  if (key === 'profile') return { value: a.profile, source: a.profileSource };
  const v = ctx.config.read().settings[key as SettingKey];
  return { value: v ?? null, source: v === undefined ? 'default' : 'file' };
}

export function applyValue(data: ConfigData, profile: string, key: string, raw: string): void {
  if (key === 'base-url') {
    checkBaseUrl(raw);
    data.profiles[profile] = { ...ownProfile(data, profile), baseUrl: raw };
  } else if (key === 'profile') {
    if (!/^[A-Za-z0-9_.-]+$/.test(raw)) throw new UsageError('profile names use letters, digits, ".", "_" and "-"');
    data.currentProfile = raw;
  } else if (key === 'output') {
    if (!isOneOf(OUTPUT_FORMATS, raw)) throw new UsageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}`);
    data.settings.output = raw;
  } else {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${key} must be a non-negative number`);
    if (key === 'retries' && !Number.isInteger(n)) throw new UsageError('retries must be a whole number');
    data.settings[key as Exclude<SettingKey, 'output'>] = n;
  }
}
