// Which profile, base URL and key a command uses, and where each came from.
// Precedence: flag > environment (ADOPS_*) > config file > default.
// `auth status` reports the sources so a CI override is never a surprise.
import { ConfigError } from './errors.js';
import { normalizeApiKey } from './key.js';
import { DEFAULT_PROFILE, envValue, ownProfile, type ConfigStore } from '../state/config-store.js';

/** The sandbox's default address: a newcomer's first base URL. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

export type Source = 'flag' | 'env' | 'file' | 'default' | 'none';

export interface ResolvedAuth {
  profile: string;
  profileSource: Source;
  baseUrl: string;
  baseUrlSource: Source;
  apiKey: string | undefined;
  apiKeySource: Source;
  organization: string | undefined;
  /** Environment variables overriding the stored login, for `auth status`. */
  envOverrides: string[];
}

export function resolveAuth(
  store: ConfigStore,
  env: Record<string, string | undefined>,
  flags: { profile?: string | undefined; baseUrl?: string | undefined },
): ResolvedAuth {
  const data = store.read();
  // Set but empty is a mistake to name (exit 2), never a silent "use the default".
  const envProfile = envValue(env, 'ADOPS_PROFILE');
  const envBaseUrl = envValue(env, 'ADOPS_BASE_URL');
  const envApiKey = envValue(env, 'ADOPS_API_KEY');
  const [profile, profileSource]: [string, Source] = flags.profile
    ? [flags.profile, 'flag']
    : envProfile
      ? [envProfile, 'env']
      : data.currentProfile
        ? [data.currentProfile, 'file']
        : [DEFAULT_PROFILE, 'default'];
  // A profile named with --profile must exist: a typo would otherwise run
  // against the default base URL with no key, or an env key, silently.
  // `auth login` creates profiles and does not come through here.
  // (ADOPS_PROFILE naming no profile stays "not logged in", exit 3.)
  if (profileSource === 'flag' && !ownProfile(data, profile)) {
    const known = Object.keys(data.profiles);
    throw new ConfigError(
      `no profile named "${profile}"`,
      'usage',
      `${known.length ? `known profiles: ${known.join(', ')}; ` : ''}create it with \`adops auth login --profile ${profile}\``,
      'unknown_profile',
    );
  }
  const stored = ownProfile(data, profile) ?? {};
  const envOverrides: string[] = [];
  if (envProfile && !flags.profile) envOverrides.push('ADOPS_PROFILE');

  let baseUrl: string;
  let baseUrlSource: Source;
  if (flags.baseUrl) [baseUrl, baseUrlSource] = [flags.baseUrl, 'flag'];
  else if (envBaseUrl) {
    [baseUrl, baseUrlSource] = [envBaseUrl, 'env'];
    envOverrides.push('ADOPS_BASE_URL');
  } else if (stored.baseUrl) [baseUrl, baseUrlSource] = [stored.baseUrl, 'file'];
  else [baseUrl, baseUrlSource] = [DEFAULT_BASE_URL, 'default'];

  let apiKey: string | undefined;
  let apiKeySource: Source;
  const envKey = normalizeApiKey(envApiKey, 'ADOPS_API_KEY');
  const storedKey = envKey ? undefined : normalizeApiKey(stored.apiKey, `profile "${profile}" in the config file`);
  if (envKey) {
    [apiKey, apiKeySource] = [envKey, 'env'];
    envOverrides.push('ADOPS_API_KEY');
  } else if (storedKey) [apiKey, apiKeySource] = [storedKey, 'file'];
  else [apiKey, apiKeySource] = [undefined, 'none'];

  // The service has no "who am I": an organization is known only as recorded with the very key in
  // use (sandbox serve --login), never another key's (ADOPS_API_KEY over a stored profile).
  const organization = apiKey ? Object.values(data.profiles).find((p) => p.organization && p.apiKey?.trim() === apiKey)?.organization : undefined;
  return { profile, profileSource, baseUrl, baseUrlSource, apiKey, apiKeySource, organization, envOverrides };
}
