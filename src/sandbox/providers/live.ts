// Live reads: the service asks the advertiser's provider now. The order of
// answers: an advertiser not owned (or nonexistent) is 404 before the provider
// is asked; a broken connection is 409; a resource or status filter the
// provider cannot serve in one request is 501 (permanent, so also before
// asking); then the request goes out (counted against the provider's rate
// limit, subject to its faults: 502). Rows come in the provider's own order
// with the three service times null. Each provider pages its own way: a
// position token, or (provider_b) page number + page size, where the size of
// the first page holds for every later page.
import { LIMIT_MAX } from '../../contract/ids.js';
import type { EntityStatus } from '../../contract/ids.js';
import type { SandboxServices } from '../http/context.js';
import { fail } from '../http/errors.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import { completeRow } from '../ingest/stored-reads.js';
import { askProvider } from './faults.js';
import { adapterFor } from './registry.js';
import { entityLookup, findOwnedAdvertiser, providerEntities, providerEntity } from './store.js';
import type { AdvertiserRecord, EntityKind, Payload, ProviderAdapter } from './types.js';

type LiveEnv = Pick<SandboxServices, 'db' | 'clock' | 'secret'>;

export interface LiveQuery {
  ids?: string[] | undefined;
  cursor?: string | undefined;
  limit: number;
  status?: EntityStatus | undefined;
  campaignId?: string | undefined;
  adGroupId?: string | undefined;
}

const RESOURCE_WORD: Record<EntityKind, string> = {
  campaign: 'campaigns', ad_group: 'ad groups', ad: 'ads', creative: 'creatives', asset_group: 'asset groups',
};

/** The checks every live read makes before asking the provider. */
function reachableAdvertiser(env: LiveEnv, orgId: string, advertiserId: string, kind: EntityKind): { advertiser: AdvertiserRecord; adapter: ProviderAdapter } {
  const advertiser = findOwnedAdvertiser(env.db, orgId, advertiserId);
  if (!advertiser) throw fail('not_found', 'No advertiser with this id belongs to your organization.');
  const provider = advertiser.provider;
  if (advertiser.connection === 'not_connected') {
    throw fail('provider_not_connected', 'The advertiser has no usable provider connection; a person must reconnect it. The stored read still answers.', { provider });
  }
  const adapter = adapterFor(provider);
  if (!adapter.kinds.includes(kind)) {
    throw fail('live_read_unsupported', `The service cannot read ${RESOURCE_WORD[kind]} live from this provider. Read the stored copy with advertiserId as a filter.`, { provider });
  }
  return { advertiser, adapter };
}

type Position = { after: number } | { page: number; pageSize: number };

function readPosition(env: LiveEnv, scope: string, filters: Record<string, unknown>, cursor: string, paging: ProviderAdapter['paging']): Position {
  const p = decodeCursor(env.secret, scope, filters, cursor) as Record<string, unknown> | null;
  const int = (v: unknown, min: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
  if (paging === 'token' && p && int(p.after, 0)) return { after: p.after as number };
  if (paging === 'page' && p && int(p.page, 2) && int(p.pageSize, 1) && (p.pageSize as number) <= LIMIT_MAX) return { page: p.page as number, pageSize: p.pageSize as number };
  throw invalidCursor();
}

export async function liveList(env: LiveEnv, orgId: string, advertiserId: string, kind: EntityKind, scope: string, query: LiveQuery): Promise<Page<Record<string, unknown>>> {
  const { advertiser, adapter } = reachableAdvertiser(env, orgId, advertiserId, kind);
  const { cursor, limit, ...rest } = query;
  if (rest.status !== undefined && !adapter.liveStatuses.includes(rest.status)) {
    throw fail('live_read_unsupported', `This provider cannot select ${rest.status} entities in one request; read the stored copy with status as a filter.`, { provider: advertiser.provider });
  }
  // Bound to the advertiser too: a cursor of one advertiser's list does not page another's.
  const filters = { advertiserId, ...rest };
  const position = cursor === undefined ? null : readPosition(env, scope, filters, cursor, adapter.paging);

  await askProvider(env, advertiser.provider);

  const lookup = entityLookup(env.db, advertiser.id);
  const wanted = rest.ids ? new Set(rest.ids) : null;
  const matching = providerEntities(env.db, advertiser.id, kind).filter((e) => {
    if (wanted && !wanted.has(e.id)) return false;
    if (rest.status !== undefined && adapter.statusOf(kind, e.payload) !== rest.status) return false;
    if (rest.campaignId !== undefined || rest.adGroupId !== undefined) {
      const parents = adapter.parentsOf(kind, e.payload, lookup);
      if (rest.campaignId !== undefined && parents.campaignId !== rest.campaignId) return false;
      if (rest.adGroupId !== undefined && parents.adGroupId !== rest.adGroupId) return false;
    }
    return true;
  });

  let slice: typeof matching;
  let next: Position | null = null;
  if (adapter.paging === 'page') {
    const pageSize = position && 'pageSize' in position ? position.pageSize : limit;
    const page = position && 'page' in position ? position.page : 1;
    slice = matching.slice((page - 1) * pageSize, page * pageSize);
    if (matching.length > page * pageSize) next = { page: page + 1, pageSize };
  } else {
    const after = position && 'after' in position ? position.after : 0;
    const rest2 = matching.filter((e) => e.position > after);
    slice = rest2.slice(0, limit);
    if (rest2.length > limit) next = { after: slice[slice.length - 1]!.position };
  }
  const ctx = { advertiser, live: true, lookup };
  const data = slice.map((e) => completeRow(kind, adapter.normalize(kind, e.payload, ctx), { createdAt: null, updatedAt: null, deletedAt: null }));
  return next ? { data, nextCursor: encodeCursor(env.secret, scope, filters, next) } : { data };
}

export async function liveGet(env: LiveEnv, orgId: string, advertiserId: string, kind: EntityKind, id: string): Promise<Payload> {
  const { advertiser, adapter } = reachableAdvertiser(env, orgId, advertiserId, kind);
  await askProvider(env, advertiser.provider);
  const entity = providerEntity(env.db, advertiser.id, kind, id);
  if (!entity) throw fail('not_found', `The provider holds no such ${RESOURCE_WORD[kind].replace(/s$/, '')} on this account.`);
  return adapter.singlePayload(kind, entity.payload, { advertiser, live: true, lookup: entityLookup(env.db, advertiser.id) });
}
