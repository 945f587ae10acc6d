// What an argument or flag value completes to (plain data, shared by
// `adops __complete` and the generated shell scripts): ids the service holds,
// file names, or a fixed list. Kinds not named here complete to nothing.

export type IdKind = 'advertiser' | 'brand' | 'plan' | 'skill' | 'asset' | 'mutation';
export type Kind = IdKind | 'profile' | 'file' | 'dir';

/** Flags whose value is of a kind, wherever they appear. */
const FLAG_KINDS: Record<string, Kind> = {
  advertiser: 'advertiser',
  live: 'advertiser',
  register: 'advertiser',
  'mutation-id': 'mutation',
  profile: 'profile',
  input: 'file',
  fixtures: 'file',
  journal: 'file',
  data: 'file',
};

export function flagKind(longFlag: string): Kind | undefined {
  return FLAG_KINDS[longFlag];
}

/** Slugs and ids by the group they are under (`skills get <slug>`, `assets get <id>`). */
const GROUP_IDS: Record<string, IdKind> = { skills: 'skill', brands: 'brand', plans: 'plan', assets: 'asset', mutations: 'mutation' };

export function argKind(path: readonly string[], arg: string): Kind | undefined {
  if (arg === 'advertiser') return 'advertiser';
  if (arg === 'brand') return 'brand';
  if (arg === 'plan') return 'plan';
  if (arg === 'files' || arg === 'file') return 'file';
  if (arg === 'dir') return 'dir';
  if (path[0] === 'auth' && arg === 'name') return 'profile';
  if (arg === 'slug' || (arg === 'id' && path[0] !== 'observe')) return GROUP_IDS[path[0] ?? ''];
  return undefined;
}

/** Arguments with a fixed list of values. */
export function argChoices(path: readonly string[], arg: string): readonly string[] | undefined {
  if (path.join(' ') === 'completion' && arg === 'shell') return ['bash', 'zsh', 'fish'];
  if (path.join(' ') === 'api' && arg === 'method') return ['GET', 'POST', 'PATCH', 'DELETE'];
  if (path[0] === 'config' && arg === 'key') return ['output', 'request-timeout', 'connect-timeout', 'retries', 'retry-budget', 'base-url', 'profile'];
  return undefined;
}

/** Where the service lists each kind of id, and the field that holds it. */
export const ID_SOURCES = {
  // Distinct advertiserId of the stored reads (the service has no list of advertisers).
  advertiser: { operation: 'listCampaigns', field: 'advertiserId', limit: 500, pages: 2 },
  brand: { operation: 'listBrands', field: 'slug', limit: 100, pages: 1 },
  plan: { operation: 'listCampaignPlans', field: 'slug', limit: 100, pages: 1 },
  skill: { operation: 'listSkills', field: 'slug', limit: 100, pages: 1 },
  asset: { operation: 'listAssets', field: 'id', limit: 100, pages: 1 },
  mutation: { operation: 'listMutations', field: 'id', limit: 100, pages: 1 },
} as const satisfies Record<IdKind, { operation: string; field: string; limit: number; pages: number }>;
