// The Observe API's request and response schemas, keyed by the ids of ./observe.ts:
// what each operation accepts and answers. Kept apart from the plain entries so
// the CLI's fast paths, which read those, never load zod.
import type { z } from 'zod';
import type { OperationSchemas } from './schemas-shape.js';
import type { OBSERVE_OPERATIONS } from './observe.js';
import {
  adGroupPageSchema,
  adPageSchema,
  assetGroupPageSchema,
  campaignPageSchema,
  creativePageSchema,
  insightPageSchema,
  insightsQuerySchema,
  liveAdGroupsQuerySchema,
  liveAdsQuerySchema,
  liveAssetGroupsQuerySchema,
  liveCampaignsQuerySchema,
  liveCreativesQuerySchema,
  liveGetParamsSchema,
  liveListParamsSchema,
  providerPayloadSchema,
  storedAdGroupsQuerySchema,
  storedAdsQuerySchema,
  storedAssetGroupsQuerySchema,
  storedCampaignsQuerySchema,
  storedCreativesQuerySchema,
} from '../schemas/observe.js';

const live = <Q extends z.ZodType, R extends z.ZodType>(query: Q, response: R) => ({ params: liveListParamsSchema, query, response });

/** Exhaustive: an operation of ./observe.ts missing here, or an id it lacks, is a compile error. */
export const OBSERVE_SCHEMAS = {
  listInsights: { query: insightsQuerySchema, response: insightPageSchema },
  listCampaigns: { query: storedCampaignsQuerySchema, response: campaignPageSchema },
  listLiveCampaigns: live(liveCampaignsQuerySchema, campaignPageSchema),
  getLiveCampaign: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAdGroups: { query: storedAdGroupsQuerySchema, response: adGroupPageSchema },
  listLiveAdGroups: live(liveAdGroupsQuerySchema, adGroupPageSchema),
  getLiveAdGroup: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAds: { query: storedAdsQuerySchema, response: adPageSchema },
  listLiveAds: live(liveAdsQuerySchema, adPageSchema),
  getLiveAd: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listCreatives: { query: storedCreativesQuerySchema, response: creativePageSchema },
  listLiveCreatives: live(liveCreativesQuerySchema, creativePageSchema),
  getLiveCreative: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAssetGroups: { query: storedAssetGroupsQuerySchema, response: assetGroupPageSchema },
  listLiveAssetGroups: live(liveAssetGroupsQuerySchema, assetGroupPageSchema),
  getLiveAssetGroup: { params: liveGetParamsSchema, response: providerPayloadSchema },
} as const satisfies { readonly [K in keyof typeof OBSERVE_OPERATIONS]: OperationSchemas };
