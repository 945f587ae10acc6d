// Definitions (data only) of the observe group: stored reads, or live reads
// with --live ACC. All run through the generic operation handler.
import { ENTITY_STATUSES, PROVIDER_FILTER_VALUES } from '../../contract/ids.js';
import { operationCommand, type FieldFlag } from '../../cli/operation-command.js';
import type { CommandSpec } from '../../cli/registry.js';

const status: FieldFlag = { flag: 'status', field: 'status', description: 'only rows in this status', valueName: 'status', choices: ENTITY_STATUSES };
const provider: FieldFlag = { flag: 'provider', field: 'provider', description: 'only this provider (stored reads)', valueName: 'provider', choices: PROVIDER_FILTER_VALUES };
const advertiser: FieldFlag = { flag: 'advertiser', field: 'advertiserId', description: 'only this advertiser (acc_…) (stored reads)', valueName: 'advertiserId' };
const ids: FieldFlag = { flag: 'ids', field: 'ids', description: 'only these provider ids, comma-separated', valueName: 'a,b', type: 'list' };
const campaign: FieldFlag = { flag: 'campaign', field: 'campaignId', description: "only this campaign's rows", valueName: 'campaignId' };
const adGroup: FieldFlag = { flag: 'ad-group', field: 'adGroupId', description: "only this ad group's ads", valueName: 'adGroupId' };

interface ObserveResource {
  word: string;
  stored: string;
  live: string;
  resource: string;
  noun: string;
  extra: readonly FieldFlag[];
}

const RESOURCES: readonly ObserveResource[] = [
  { word: 'campaigns', stored: 'listCampaigns', live: 'listLiveCampaigns', resource: 'campaign', noun: 'campaigns', extra: [] },
  { word: 'ad-groups', stored: 'listAdGroups', live: 'listLiveAdGroups', resource: 'adGroup', noun: 'ad groups', extra: [campaign] },
  { word: 'ads', stored: 'listAds', live: 'listLiveAds', resource: 'ad', noun: 'ads', extra: [campaign, adGroup] },
  { word: 'creatives', stored: 'listCreatives', live: 'listLiveCreatives', resource: 'creative', noun: 'creatives', extra: [] },
  { word: 'asset-groups', stored: 'listAssetGroups', live: 'listLiveAssetGroups', resource: 'assetGroup', noun: 'asset groups', extra: [campaign] },
];

export const observeCommands: CommandSpec[] = RESOURCES.map((r) =>
  operationCommand({
    path: ['observe', r.word],
    operationId: r.stored,
    description: `List ${r.noun}: the stored copy, or live from the provider with --live`,
    query: [status, provider, advertiser, ids, ...r.extra],
    alternate: {
      flag: 'live',
      operationId: r.live,
      param: 'advertiserId',
      description: 'read live from the provider for this advertiser (counts against its rate limits)',
      queryFlags: ['status', 'ids', ...r.extra.map((f) => f.flag)],
    },
    resource: r.resource,
    examples: [
      `adops observe ${r.word} --limit 20`,
      `adops observe ${r.word} --all --output ndjson`,
      `adops observe ${r.word} --live acc_123 --status PAUSED`,
    ],
  }),
);
