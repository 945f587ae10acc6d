// The operations plans verify and plans pacing send, and the bounds both keep, apart from their
// flows so the plans group's definitions (read for every --help) name them without loading the client.
import type { OperationOutput } from '../contract/operation-io.js';
import type { OperationId } from '../contract/operations.js';
import { RESOURCES } from '../contract/resources.js';

/** The entity types an execution can name (a Line Item's `executions[].entityType`, from the contract). */
type ExecutionEntityType = OperationOutput<'getCampaignPlan'>['lineItems'][number]['executions'][number]['entityType'];

/** The live list of each type an execution can name (src/contract/resources.ts). */
export const LIVE_LIST = {
  campaign: RESOURCES.campaign.observe.live,
  ad_group: RESOURCES.adGroup.observe.live,
  ad: RESOURCES.ad.observe.live,
  creative: RESOURCES.creative.observe.live,
  asset_group: RESOURCES.assetGroup.observe.live,
} as const satisfies Record<ExecutionEntityType, OperationId>;

export const VERIFY_OPERATIONS: OperationId[] = ['getCampaignPlan', ...Object.values(LIVE_LIST)];

/** --suggest reads the budgets that carry a Line Item's spend live, as verify reads them. */
export const PACING_OPERATIONS: OperationId[] = ['getCampaignPlan', 'listInsights', 'listAdGroups', 'listAds', LIVE_LIST.campaign, LIVE_LIST.ad_group];

/** Ids per request (a live list or Insights): well inside `limit` (500) and the query's length. */
export const IDS_PER_READ = 100;
/** Requests at once: live reads across advertisers (verify), Line Items paced side by side (pacing). */
export const CONCURRENCY = 4;
