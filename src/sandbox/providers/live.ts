// Live reads: the service asks the advertiser's provider now. The order of
// answers: an advertiser not owned (or nonexistent) is 404 before the provider
// is asked; a broken connection is 409; a resource or status filter the
// provider cannot serve in one request is 501 (permanent, so also before
// asking); then the request goes out (counted against the provider's rate
// limit, subject to its faults: 502). Rows come in the provider's own order
// with the three service times null. Each provider pages its own way: a
// position token, or (provider_b) page number + page size, where the size of
// the first page holds for every later page.
//
// A page reads the provider's list from where the last one stopped (the cursor
// keeps the position of its last entity, also under page numbers), in windows
// the size of the page, so page 30 costs what page 1 costs.
import { LIMIT_MAX } from '../../contract/ids.js';
import type { EntityStatus } from '../../contract/ids.js';
import type { Scope } from '../models/scope.js';
import { domainError } from '../models/errors.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import { completeRow, LIVE_TIMES } from './rows.js';
import { askProvider } from './faults.js';
import { adapterFor } from './registry.js';
import { ownedAdvertiser } from '../models/advertisers.js';
import { pointLookup, providerEntitiesAfter, providerEntity } from './store.js';
import type { EntityLookup, ProviderEntityRow } from './store.js';
import { isPayload } from './types.js';
import type { AdvertiserRecord, EntityKind, Payload, ProviderAdapter } from './types.js';

/** Live reads ask the providers through the sandbox's services (call log, faults). */
type LiveEnv = Pick<Scope, 'db' | 'orgId' | 'secret' | 'services'>;

export interface LiveQuery {
  ids?: string[] | undefined;
  cursor?: string | undefined;
  limit: number;
  status?: EntityStatus | undefined;
  campaignId?: string | undefined;
  adGroupId?: string | undefined;
}

const RESOURCE_WORD: Record<EntityKind, string> = {
  campaign: 'campaigns',
  ad_group: 'ad groups',
  ad: 'ads',
  creative: 'creatives',
  asset_group: 'asset groups',
};

/** The checks every live read makes before asking the provider. */
function reachableAdvertiser(
  env: LiveEnv,
  advertiserId: string,
  kind: EntityKind,
  notOwned = () => domainError('not_found', 'No advertiser with this id belongs to your organization.'),
): { advertiser: AdvertiserRecord; adapter: ProviderAdapter } {
  const advertiser = ownedAdvertiser(env.db, env.orgId, advertiserId);
  if (!advertiser) throw notOwned();
  const provider = advertiser.provider;
  if (advertiser.connection === 'not_connected') {
    throw domainError(
      'provider_not_connected',
      'The advertiser has no usable provider connection; a person must reconnect it. The stored read still answers.',
      { provider },
    );
  }
  const adapter = adapterFor(provider);
  if (!adapter.kinds.includes(kind)) {
    throw domainError(
      'live_read_unsupported',
      `The service cannot read ${RESOURCE_WORD[kind]} live from this provider. Read the stored copy with advertiserId as a filter.`,
      { provider },
    );
  }
  return { advertiser, adapter };
}

/** `after`: the provider position of the last entity served (absent only in cursors minted before it was kept). */
type Position = { after: number } | { page: number; pageSize: number; after?: number };

function readPosition(env: LiveEnv, scope: string, filters: Record<string, unknown>, cursor: string, paging: ProviderAdapter['paging']): Position {
  const decoded = decodeCursor(env.secret, scope, filters, cursor);
  const p = isPayload(decoded) ? decoded : {};
  const int = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
  const { after, page, pageSize } = p;
  if (paging === 'token' && int(after, 0)) return { after };
  if (paging === 'page' && int(page, 2) && int(pageSize, 1) && pageSize <= LIMIT_MAX && (after === undefined || int(after, 0))) {
    return after === undefined ? { page, pageSize } : { page, pageSize, after };
  }
  throw invalidCursor();
}

/**
 * Entities in the provider's order after `after` that pass `accept`: skip the
 * first `skip` of them, then take up to `take`. Reads windows of `take` rows
 * (one window when nothing is filtered out), so the cost follows the page, not
 * its depth.
 */
function scan(
  env: LiveEnv,
  advertiserId: string,
  kind: EntityKind,
  start: { after: number; skip: number; take: number; ids?: readonly string[] },
  accept: (e: ProviderEntityRow) => boolean,
): ProviderEntityRow[] {
  const out: ProviderEntityRow[] = [];
  let { after, skip } = start;
  const windowSize = Math.max(start.take, 50);
  for (;;) {
    const batch = providerEntitiesAfter(env.db, advertiserId, kind, after, windowSize, start.ids);
    for (const e of batch) {
      after = e.position;
      if (!accept(e)) continue;
      if (skip > 0) skip -= 1;
      else if (out.push(e) >= start.take) return out;
    }
    if (batch.length < windowSize) return out;
  }
}

export async function liveList(env: LiveEnv, advertiserId: string, kind: EntityKind, scope: string, query: LiveQuery): Promise<Page<Record<string, unknown>>> {
  const { advertiser, adapter } = reachableAdvertiser(env, advertiserId, kind);
  const { cursor, limit, ...rest } = query;
  if (rest.status !== undefined && !adapter.liveStatuses.includes(rest.status)) {
    throw domainError(
      'live_read_unsupported',
      `This provider cannot select ${rest.status} entities in one request; read the stored copy with status as a filter.`,
      { provider: advertiser.provider },
    );
  }
  // Bound to the advertiser too: a cursor of one advertiser's list does not page another's.
  const filters = { advertiserId, ...rest };
  const position = cursor === undefined ? null : readPosition(env, scope, filters, cursor, adapter.paging);

  await askProvider(env.services, advertiser.provider);

  const lookup: EntityLookup = pointLookup(env.db, advertiser.id);
  const accept = (e: ProviderEntityRow): boolean => {
    if (rest.status !== undefined && adapter.statusOf(kind, e.payload) !== rest.status) return false;
    if (rest.campaignId !== undefined || rest.adGroupId !== undefined) {
      const parents = adapter.parentsOf(kind, e.payload, lookup);
      if (rest.campaignId !== undefined && parents.campaignId !== rest.campaignId) return false;
      if (rest.adGroupId !== undefined && parents.adGroupId !== rest.adGroupId) return false;
    }
    return true;
  };

  // The page size (fixed by the first page under page numbers) and where this page starts.
  const pageSize = position && 'pageSize' in position ? position.pageSize : limit;
  const page = position && 'page' in position ? position.page : 1;
  const after = position?.after ?? 0;
  // A page-number cursor without a position (minted before positions were kept) skips whole pages.
  const skip = position && 'page' in position && position.after === undefined ? (page - 1) * pageSize : 0;
  // One more than the page, to know whether another page follows.
  const found = scan(env, advertiser.id, kind, { after, skip, take: pageSize + 1, ...(rest.ids ? { ids: rest.ids } : {}) }, accept);
  const slice = found.slice(0, pageSize);
  const last = slice[slice.length - 1];
  const next: Position | null =
    found.length > pageSize && last ? (adapter.paging === 'page' ? { page: page + 1, pageSize, after: last.position } : { after: last.position }) : null;

  const ctx = { advertiser, live: true, lookup };
  const data = slice.map((e) => completeRow(kind, adapter.normalize(kind, e.payload, ctx), LIVE_TIMES));
  return next ? { data, nextCursor: encodeCursor(env.secret, scope, filters, next) } : { data };
}

/**
 * Single live read. No such entity, a provider holding none of that kind, and
 * an advertiser not owned answer the same 404 (status, code and message): the
 * spec leaves them deliberately indistinguishable.
 */
export async function liveGet(env: LiveEnv, advertiserId: string, kind: EntityKind, id: string): Promise<Payload> {
  const word = RESOURCE_WORD[kind].replace(/s$/, '');
  const notFound = () => domainError('not_found', `No ${word} with this id is held for this advertiser of your organization.`);
  const { advertiser, adapter } = reachableAdvertiser(env, advertiserId, kind, notFound);
  await askProvider(env.services, advertiser.provider);
  const entity = providerEntity(env.db, advertiser.id, kind, id);
  if (!entity) throw notFound();
  return adapter.singlePayload(kind, entity.payload, { advertiser, live: true, lookup: pointLookup(env.db, advertiser.id) });
}
