// What an argument or flag value completes to (plain data, shared by
// `adops __complete` and the generated shell scripts): ids the service holds,
// file names, or a fixed list. Kinds not named here complete to nothing. The
// ids are the nouns' (src/contract/resources.ts `completion`: where each is
// listed, under which groups, arguments and flags); the rest is the CLI's own.
import type { ListOperationId } from '../client/call.js';
import { OPERATION_TABLE, type OperationId } from '../contract/operations.js';
import { RESOURCES, resourceEntries, type ResourceName } from '../contract/resources.js';

type CompletionOf<K extends ResourceName> = (typeof RESOURCES)[K] extends { completion: { kind: infer C } } ? C : never;
export type IdKind = { [K in ResourceName]: CompletionOf<K> }[ResourceName];
export type Kind = IdKind | 'profile' | 'file' | 'dir';

interface IdSource {
  operation: ListOperationId;
  field: string;
  limit: number;
  pages: number;
}

const isListing = (id: OperationId): id is ListOperationId => OPERATION_TABLE[id].kind === 'list';
function listing(id: OperationId): ListOperationId {
  if (!isListing(id)) throw new Error(`${id} lists nothing`);
  return id;
}

/** Where the service lists each kind of id, and the field that holds it. */
export const ID_SOURCES = Object.fromEntries(
  resourceEntries().flatMap(([, r]) => {
    const c = r.completion;
    return c ? [[c.kind, { operation: listing(c.list), field: c.field ?? r.id, limit: c.limit, pages: c.pages } satisfies IdSource]] : [];
  }),
) as Readonly<Record<IdKind, IdSource>>;

export const isIdKind = (k: string | undefined): k is IdKind => k !== undefined && Object.hasOwn(ID_SOURCES, k);

/** Which nouns' ids a flag, an argument or a group's `<slug>`/`<id>` names. */
function idKindsBy(words: 'flags' | 'args' | 'groups'): Record<string, IdKind> {
  const out: Record<string, IdKind> = {};
  for (const [, r] of resourceEntries()) {
    const kind = r.completion?.kind;
    if (isIdKind(kind)) for (const w of r.completion?.[words] ?? []) out[w] = kind;
  }
  return out;
}

/** Flags whose value is of a kind, wherever they appear. */
const FLAG_KINDS: Readonly<Record<string, Kind>> = {
  ...idKindsBy('flags'),
  profile: 'profile',
  input: 'file',
  fixtures: 'file',
  journal: 'file',
  data: 'file',
};
const ARG_IDS = idKindsBy('args');
/** Slugs and ids by the group they are under (`skills get <slug>`, `assets get <id>`). */
const GROUP_IDS = idKindsBy('groups');

export function flagKind(longFlag: string): Kind | undefined {
  return Object.hasOwn(FLAG_KINDS, longFlag) ? FLAG_KINDS[longFlag] : undefined;
}

export function argKind(path: readonly string[], arg: string): Kind | undefined {
  if (Object.hasOwn(ARG_IDS, arg)) return ARG_IDS[arg];
  if (arg === 'files' || arg === 'file') return 'file';
  if (arg === 'dir') return 'dir';
  if (path[0] === 'auth' && arg === 'name') return 'profile';
  const group = path[0] ?? '';
  if ((arg === 'slug' || (arg === 'id' && group !== 'observe')) && Object.hasOwn(GROUP_IDS, group)) return GROUP_IDS[group];
  return undefined;
}

/** Arguments with a fixed list of values. */
export function argChoices(path: readonly string[], arg: string): readonly string[] | undefined {
  if (path.join(' ') === 'completion' && arg === 'shell') return ['bash', 'zsh', 'fish'];
  if (path.join(' ') === 'api' && arg === 'method') return ['GET', 'POST', 'PATCH', 'DELETE'];
  if (path[0] === 'config' && arg === 'key') return ['output', 'request-timeout', 'connect-timeout', 'retries', 'retry-budget', 'base-url', 'profile'];
  return undefined;
}
