// The Observe API: stored reads (no advertiser in the path; what ingestion
// stored), live reads (the advertiser in the path; the provider is asked now)
// and Insights. Thin handlers over ingest/stored-reads.ts, ingest/insights.ts
// and providers/live.ts; one table of resources drives all fifteen entity routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import {
  adGroupPageSchema, adPageSchema, assetGroupPageSchema, campaignPageSchema, creativePageSchema, insightPageSchema, insightsQuerySchema,
  liveAdGroupsQuerySchema, liveAdsQuerySchema, liveAssetGroupsQuerySchema, liveCampaignsQuerySchema, liveCreativesQuerySchema,
  liveGetParamsSchema, liveListParamsSchema, providerPayloadSchema,
  storedAdGroupsQuerySchema, storedAdsQuerySchema, storedAssetGroupsQuerySchema, storedCampaignsQuerySchema, storedCreativesQuerySchema,
} from '../../contract/schemas/observe.js';
import type { InsightsQuery } from '../../contract/schemas/observe.js';
import type { AppEnv } from '../http/context.js';
import { operationRoute } from '../http/route.js';
import { advanceDueSteps } from './mutations.js';
import { scopeOf } from './scope.js';
import { insightsPage } from '../ingest/insights.js';
import { storedPage } from '../ingest/stored-reads.js';
import { pageJson } from '../store/cursor.js';
import type { StoredQuery } from '../ingest/stored-reads.js';
import { ProviderThrottled } from '../providers/faults.js';
import { liveGet, liveList } from '../providers/live.js';
import type { LiveQuery } from '../providers/live.js';
import type { EntityKind } from '../providers/types.js';

interface Resource {
  kind: EntityKind;
  plural: string;
  stored: string;
  live: string;
  get: string;
  storedQuery: z.ZodObject;
  liveQuery: z.ZodObject;
  page: z.ZodType;
}

const RESOURCES: readonly Resource[] = [
  { kind: 'campaign', plural: 'campaigns', stored: 'listCampaigns', live: 'listLiveCampaigns', get: 'getLiveCampaign', storedQuery: storedCampaignsQuerySchema, liveQuery: liveCampaignsQuerySchema, page: campaignPageSchema },
  { kind: 'ad_group', plural: 'ad groups', stored: 'listAdGroups', live: 'listLiveAdGroups', get: 'getLiveAdGroup', storedQuery: storedAdGroupsQuerySchema, liveQuery: liveAdGroupsQuerySchema, page: adGroupPageSchema },
  { kind: 'ad', plural: 'ads', stored: 'listAds', live: 'listLiveAds', get: 'getLiveAd', storedQuery: storedAdsQuerySchema, liveQuery: liveAdsQuerySchema, page: adPageSchema },
  { kind: 'creative', plural: 'creatives', stored: 'listCreatives', live: 'listLiveCreatives', get: 'getLiveCreative', storedQuery: storedCreativesQuerySchema, liveQuery: liveCreativesQuerySchema, page: creativePageSchema },
  { kind: 'asset_group', plural: 'asset groups', stored: 'listAssetGroups', live: 'listLiveAssetGroups', get: 'getLiveAssetGroup', storedQuery: storedAssetGroupsQuerySchema, liveQuery: liveAssetGroupsQuerySchema, page: assetGroupPageSchema },
];

/** `ids=` with nothing in it filters on nothing. */
function withoutEmptyIds<T extends { ids?: string[] | undefined }>(q: T): T {
  if (q.ids !== undefined && q.ids.length === 0) {
    const { ids: _ids, ...rest } = q;
    return rest as T;
  }
  return q;
}

/** What the route's validators checked (the routes are built in a loop, so their input types are not inferred). */
function valid<T>(c: Context<AppEnv>, target: 'query' | 'param'): T {
  return (c.req as unknown as { valid(t: string): T }).valid(target);
}

/** The Content-Type c.json sends, for bodies built as text. A fresh object each time: the node adapter may keep and extend it. */
const jsonType = () => ({ 'content-type': 'application/json' });

const LIVE_ERRORS = ['not_found', 'invalid_cursor', 'provider_not_connected', 'live_read_unsupported', 'provider_error'] as const;

export function registerObserveRoutes(app: OpenAPIHono<AppEnv>): void {
  // A mutation applied at its due time shows in a live read that comes after it.
  app.use('/observe/*', advanceDueSteps);
  // A throttled provider: say when to retry (the error body is rendered by the app's onError before this runs on).
  app.use('/observe/*', async (c, next) => {
    await next();
    if (c.error instanceof ProviderThrottled) c.header('Retry-After', String(c.error.retryAfterSeconds));
  });

  // Insights first: '/observe/insights' is a stored read, not an advertiser's path.
  app.openapi(
    operationRoute('listInsights', {
      request: { query: insightsQuerySchema as never },
      responses: { 200: { description: 'Aggregated metrics over the range, newest period first.', schema: insightPageSchema } },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(insightsPage(scopeOf(c as never), valid<InsightsQuery>(c as never, 'query')), 200),
  );

  for (const r of RESOURCES) {
    app.openapi(
      operationRoute(r.stored, {
        request: { query: r.storedQuery },
        responses: { 200: { description: `A page of stored ${r.plural}, newest first (the row stored last comes first).`, schema: r.page } },
        errors: ['invalid_cursor'],
      }) as never,
      ((c: Context<AppEnv>) => {
        const query = withoutEmptyIds(valid<StoredQuery>(c, 'query'));
        // Rows are stored serialized: the page is spliced text, not c.json of parsed rows.
        return c.body(pageJson(storedPage(scopeOf(c), r.kind, r.stored, query)), 200, jsonType());
      }) as never,
    );

    app.openapi(
      operationRoute(r.live, {
        request: { params: liveListParamsSchema, query: r.liveQuery },
        responses: { 200: { description: `A page of the advertiser's ${r.plural} as the provider answers now, in its own order.`, schema: r.page } },
        errors: [...LIVE_ERRORS],
      }) as never,
      (async (c: Context<AppEnv>) => {
        const { advertiserId } = valid<{ advertiserId: string }>(c, 'param');
        const query = withoutEmptyIds(valid<LiveQuery>(c, 'query'));
        return c.json(await liveList(scopeOf(c), advertiserId, r.kind, r.live, query), 200);
      }) as never,
    );

    app.openapi(
      operationRoute(r.get, {
        request: { params: liveGetParamsSchema },
        responses: { 200: { description: "The provider's own payload: its keys, only the fields the service requests; provider_a money in whole units.", schema: providerPayloadSchema } },
        errors: [...LIVE_ERRORS],
      }) as never,
      (async (c: Context<AppEnv>) => {
        const { advertiserId, id } = valid<{ advertiserId: string; id: string }>(c, 'param');
        return c.json(await liveGet(scopeOf(c), advertiserId, r.kind, id), 200);
      }) as never,
    );
  }
}
