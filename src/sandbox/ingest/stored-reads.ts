// Stored reads of Observe: what ingestion wrote, newest first (the row stored
// last comes first), keyset-paged on `seq` so page 1,000 costs what page 1
// costs. Rows the service marked deleted never appear. Filters that match
// nothing (an advertiser not owned, provider_e…g or provider_d, which are never
// ingested) simply answer an empty page.
//
// Each page is served as stored text: ingestion keeps every row serialized
// (`observe_rows.json`), and the page splices those strings together, so a
// read costs one indexed query and no per-row parse or serialize.
import type { Scope } from '../models/scope.js';
import type { EntityStatus, ProviderToken } from '../../contract/ids.js';
import { keysetPage, keysetTextPage, pageJson } from '../store/cursor.js';
import type { TextPage } from '../store/cursor.js';
import { completeRow } from '../providers/rows.js';
import { payloadOf } from '../providers/store.js';
import type { EntityKind } from '../providers/types.js';

export interface StoredQuery {
  ids?: string[] | undefined;
  cursor?: string | undefined;
  limit: number;
  advertiserId?: string | undefined;
  provider?: ProviderToken | undefined;
  status?: EntityStatus | undefined;
  campaignId?: string | undefined;
  adGroupId?: string | undefined;
}

interface StoredDbRow extends Record<string, unknown> {
  json: string | null;
  row: string;
  created_at: number;
  updated_at: number | null;
}

/** One page of stored rows as text (see keysetTextPage), in the route's body by pageJson. */
export function storedPage(env: Pick<Scope, 'db' | 'secret' | 'orgId'>, kind: EntityKind, scope: string, query: StoredQuery): TextPage {
  const { cursor, limit, ...filters } = query;
  const q = {
    db: env.db,
    secret: env.secret,
    scope,
    filters,
    cursor,
    limit,
    from: 'observe_rows',
    seq: 'seq',
    where: [
      'org_id = @org',
      'kind = @kind',
      'deleted_at IS NULL',
      filters.advertiserId !== undefined && 'advertiser_id = @advertiserId',
      filters.provider !== undefined && 'provider = @provider',
      filters.status !== undefined && 'status = @status',
      filters.campaignId !== undefined && 'campaign_id = @campaignId',
      filters.adGroupId !== undefined && 'ad_group_id = @adGroupId',
      filters.ids !== undefined && 'id IN (SELECT value FROM json_each(@ids))',
    ],
    params: {
      org: env.orgId,
      kind,
      advertiserId: filters.advertiserId,
      provider: filters.provider,
      status: filters.status,
      campaignId: filters.campaignId,
      adGroupId: filters.adGroupId,
      ids: filters.ids === undefined ? undefined : JSON.stringify(filters.ids),
    },
  };
  const spliced = keysetTextPage({ ...q, text: 'json' });
  if (spliced) return spliced;
  // A page holding rows stored before the json column existed: serialize them here.
  const page = keysetPage<StoredDbRow, string>({
    ...q,
    select: 'json, row, created_at, updated_at',
    map: (r) => r.json ?? storedRowJson(kind, payloadOf(r.row), r.created_at, r.updated_at),
  });
  return page.nextCursor === undefined ? { rows: page.data.join(',') } : { rows: page.data.join(','), nextCursor: page.nextCursor };
}

/**
 * Where a stored read's body is kept (store/page-cache.ts): the operation (and so the
 * kind), the organization, and the request's query exactly as sent (`?…`, or ''). The
 * query is validated before a body is made, and the same text always validates to the
 * same query, so it stands for every filter, the cursor and the limit.
 */
export function storedPageKey(operation: string, orgId: string, search: string): string {
  return JSON.stringify([operation, orgId, search]);
}

/** The response body of a stored read (pageJson of storedPage), made once and sent again until the store changes. */
export function storedPageBody(
  scope: Pick<Scope, 'db' | 'secret' | 'orgId' | 'services'>,
  kind: EntityKind,
  operation: string,
  query: StoredQuery,
  search: string,
): Uint8Array<ArrayBuffer> {
  return scope.services.storedPages.body(storedPageKey(operation, scope.orgId, search), () => pageJson(storedPage(scope, kind, operation, query)));
}

/** The serialized row a stored read answers (a stored row is never deleted while listed). */
export function storedRowJson(kind: EntityKind, body: Record<string, unknown>, createdAt: number, updatedAt: number | null): string {
  return JSON.stringify(completeRow(kind, body, { createdAt, updatedAt, deletedAt: null }));
}
