// Definitions (data only) of the observe group: per resource a group whose
// default verb `list` reads the stored copy, or live from the provider with
// --live ACC, and `get ACC ID` reads one entity live; and insights.
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { operationCommand } from '../../cli/operation-command.js';

interface ObserveResource {
  word: string;
  stored: string;
  live: string;
  get: string;
  resource: string;
  noun: string;
  one: string;
}

const RESOURCES: readonly ObserveResource[] = [
  { word: 'campaigns', stored: 'listCampaigns', live: 'listLiveCampaigns', get: 'getLiveCampaign', resource: 'campaign', noun: 'campaigns', one: 'campaign' },
  { word: 'ad-groups', stored: 'listAdGroups', live: 'listLiveAdGroups', get: 'getLiveAdGroup', resource: 'adGroup', noun: 'ad groups', one: 'ad group' },
  { word: 'ads', stored: 'listAds', live: 'listLiveAds', get: 'getLiveAd', resource: 'ad', noun: 'ads', one: 'ad' },
  { word: 'creatives', stored: 'listCreatives', live: 'listLiveCreatives', get: 'getLiveCreative', resource: 'creative', noun: 'creatives', one: 'creative' },
  { word: 'asset-groups', stored: 'listAssetGroups', live: 'listLiveAssetGroups', get: 'getLiveAssetGroup', resource: 'assetGroup', noun: 'asset groups', one: 'asset group' },
];

export const observeGroups: GroupSpec[] = RESOURCES.map((r) => ({
  path: ['observe', r.word],
  description: `${r.noun[0]!.toUpperCase()}${r.noun.slice(1)}: list (the default verb; stored, or --live) and get (live)`,
  defaultCommand: 'list',
}));

export const observeCommands: CommandSpec[] = [
  operationCommand({
    path: ['observe', 'insights'],
    operationId: 'listInsights',
    description: 'Spend, impressions, clicks, reach and conversions over a date range (stored read)',
    flagNames: { timeGrain: 'grain' },
    resource: 'insight',
    extraOptions: [{ flags: '--chart <metric>', description: 'on a terminal, draw this metric over time under the table', choices: ['spend', 'impressions', 'clicks', 'reach', 'conversions'] }],
    load: () => import('./insights.js'),
    examples: [
      'adops observe insights --since 2026-09-01 --until 2026-09-30 --grain day --chart spend',
      'adops observe insights --since 2026-09-01 --until 2026-09-30 --level campaign --all --output csv > september.csv',
      'adops observe insights --since 2026-09-01 --until 2026-09-30 --breakdown provider',
    ],
  }),
  ...RESOURCES.flatMap((r) => [
    operationCommand({
      path: ['observe', r.word, 'list'],
      operationId: r.stored,
      description: `List ${r.noun}: the stored copy, or live from the provider with --live`,
      alternate: {
        flag: 'live',
        operationId: r.live,
        param: 'advertiserId',
        description: 'read live from the provider for this advertiser (counts against its rate limits)',
      },
      resource: r.resource,
      load: () => import('./list.js'),
      extraOptions: [{ flags: '--fallback-stored', description: 'with --live: when the provider cannot read this live (501), read the stored copy instead' }],
      examples: [
        `adops observe ${r.word} --limit 20`,
        `adops observe ${r.word} list --all --output ndjson`,
        `adops observe ${r.word} --live acc_123 --status PAUSED`,
      ],
    }),
    operationCommand({
      path: ['observe', r.word, 'get'],
      operationId: r.get,
      description: `Read one ${r.one} live from the provider: its own payload, keys and units`,
      argNames: { advertiserId: 'advertiser', id: 'id' },
      resource: 'livePayload',
      examples: [`adops observe ${r.word} get acc_123 120330000000001`],
    }),
  ]),
];
