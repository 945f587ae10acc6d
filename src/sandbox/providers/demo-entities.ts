// Provider-side entities of one demo advertiser, in its provider's own
// payload keys and units, spread into the advertiser's fixture object.
// Deterministic: a PRNG seeded from the advertiser id, and insights that end
// on a fixed day (DEMO_INSIGHTS_LAST_DAY, the day before the ManualClock's
// default "now"), so docs and tests can name ids and figures.
import { seededRandom } from './call-log.js';
import { formatTimeA, PROVIDER_A_BID_STRATEGIES } from './provider-a.js';
import { formatTimeB } from './provider-b.js';
import { currencyDecimals } from './units.js';

export interface DemoAdvertiserSeed {
  id: string;
  organization?: string;
  provider: string;
  name: string;
  currency: string | null;
  connection?: string;
}

export const DEMO_INSIGHTS_LAST_DAY = '2026-09-30';
export const DEMO_INSIGHT_DAYS = 90;
export const DEMO_CAMPAIGNS_PER_ADVERTISER = 24;
/** Only the first campaigns delivered (have insights): keeps the demo world quick to load. */
const DELIVERING_CAMPAIGNS = 10;
const AD_GROUPS_PER_CAMPAIGN = 2;
const ADS_PER_AD_GROUP = 2;
const DAY = 86_400_000;

type Obj = Record<string, unknown>;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

class Gen {
  readonly rand: () => number;
  readonly prefix: string;
  #serial = 0;
  constructor(advertiserId: string, seed: number) {
    const h = hash(advertiserId);
    this.rand = seededRandom(h ^ seed);
    this.prefix = String(100_000 + (h % 900_000));
  }
  /** A digit id unique per advertiser and type (prefix from the advertiser, then a serial). */
  id(lead: string): string {
    return `${lead}${this.prefix}${String(++this.#serial).padStart(5, '0')}`;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }
  /** Mostly active, some paused, a few archived or deleted. */
  status(): 'ACTIVE' | 'PAUSED' | 'ARCHIVED' | 'DELETED' {
    const r = this.rand();
    return r < 0.7 ? 'ACTIVE' : r < 0.9 ? 'PAUSED' : r < 0.95 ? 'ARCHIVED' : 'DELETED';
  }
}

const LAST_DAY_MS = Date.parse(`${DEMO_INSIGHTS_LAST_DAY}T00:00:00Z`);
const NAMES = ['Prospecting', 'Retargeting', 'Brand', 'Launch', 'Evergreen', 'Seasonal', 'Lookalike', 'Catalog'];

interface Skeleton {
  campaigns: Obj[];
  adGroups: Obj[];
  ads: Obj[];
  /** Entity ids for insight rows: [campaignId, adGroupId?, adId?]. */
  leaves: Array<[string, string?, string?]>;
}

function times(g: Gen): { created: number; updated: number } {
  const created = LAST_DAY_MS - g.int(20, 200) * DAY + g.int(0, 86_399) * 1000;
  return { created, updated: Math.min(created + g.int(0, 60) * DAY, LAST_DAY_MS) };
}

function providerA(g: Gen, minor: number, s: Skeleton, creatives: Obj[]): void {
  const account_id = `act_${g.prefix}`;
  for (let c = 0; c < DEMO_CAMPAIGNS_PER_ADVERTISER; c++) {
    const id = g.id('238');
    const t = times(g);
    const cbo = c % 2 === 0;
    const strategy = g.pick(PROVIDER_A_BID_STRATEGIES);
    const campaign: Obj = {
      id,
      account_id,
      name: `${g.pick(NAMES)} ${c + 1}`,
      objective: g.pick(['OUTCOME_SALES', 'OUTCOME_TRAFFIC', 'OUTCOME_LEADS', 'OUTCOME_AWARENESS']),
      status: g.status(),
      start_time: formatTimeA(t.created),
      created_time: formatTimeA(t.created),
      updated_time: formatTimeA(t.updated),
    };
    if (cbo) {
      campaign[c % 4 === 0 ? 'daily_budget' : 'lifetime_budget'] = String(g.int(20, 500) * minor * (c % 4 === 0 ? 1 : 30));
      campaign.bid_strategy = strategy;
      campaign.is_adset_budget_sharing_enabled = c % 3 === 0;
    }
    s.campaigns.push(campaign);
    for (let a = 0; a < AD_GROUPS_PER_CAMPAIGN; a++) {
      const adSetId = g.id('238');
      const st = g.pick(PROVIDER_A_BID_STRATEGIES);
      const adSet: Obj = {
        id: adSetId,
        account_id,
        campaign_id: id,
        name: `Ad set ${c + 1}.${a + 1}`,
        status: g.status(),
        optimization_goal: g.pick(['OFFSITE_CONVERSIONS', 'LINK_CLICKS', 'REACH', 'IMPRESSIONS']),
        billing_event: 'IMPRESSIONS',
        start_time: formatTimeA(t.created),
        created_time: formatTimeA(t.created),
        updated_time: formatTimeA(t.updated),
      };
      if (a === 1) adSet.end_time = formatTimeA(LAST_DAY_MS + 30 * DAY);
      const effective = cbo ? strategy : st;
      if (!cbo) {
        adSet.daily_budget = String(g.int(5, 200) * minor);
        adSet.bid_strategy = st;
      }
      if (effective === 'LOWEST_COST_WITH_BID_CAP' || effective === 'COST_CAP') adSet.bid_amount = String(g.int(50, 900) * Math.max(1, minor / 100));
      if (effective === 'LOWEST_COST_WITH_MIN_ROAS') adSet.bid_constraints = { roas_average_floor: g.pick([10000, 15000, 20000, 25000]) };
      s.adGroups.push(adSet);
      for (let d = 0; d < ADS_PER_AD_GROUP; d++) {
        const creativeId = g.id('238');
        creatives.push({
          id: creativeId,
          account_id,
          name: `Creative ${c + 1}.${a + 1}.${d + 1}`,
          status: 'ACTIVE',
          title: `${g.pick(NAMES)} offer`,
          body: 'Discover the new collection.',
          image_url: `https://cdn.provider-a.example/img/${creativeId}.jpg`,
          call_to_action_type: g.pick(['SHOP_NOW', 'LEARN_MORE', 'SIGN_UP']),
        });
        const adId = g.id('238');
        s.ads.push({
          id: adId,
          account_id,
          adset_id: adSetId,
          campaign_id: id,
          name: `Ad ${c + 1}.${a + 1}.${d + 1}`,
          status: g.status(),
          creative: { id: creativeId },
          created_time: formatTimeA(t.created),
          updated_time: formatTimeA(t.updated),
        });
        s.leaves.push([id, adSetId, adId]);
      }
    }
  }
}

function providerB(g: Gen, s: Skeleton): void {
  const word = { ACTIVE: 'ENABLE', PAUSED: 'DISABLE', ARCHIVED: 'ARCHIVE', DELETED: 'DELETE' } as const;
  for (let c = 0; c < DEMO_CAMPAIGNS_PER_ADVERTISER; c++) {
    const id = g.id('17');
    const t = times(g);
    // Three kinds: campaign budget (CBO on), ad group budgets (CBO off), and a payload that does not say.
    const mode = c % 3;
    const campaign: Obj = {
      campaign_id: id,
      campaign_name: `${g.pick(NAMES)} ${c + 1}`,
      objective_type: g.pick(['TRAFFIC', 'CONVERSIONS', 'REACH', 'VIDEO_VIEWS', 'APP_PROMOTION']),
      operation_status: word[g.status()],
      create_time: formatTimeB(t.created),
      modify_time: formatTimeB(t.updated),
      budget_mode: mode === 0 ? g.pick(['BUDGET_MODE_DAY', 'BUDGET_MODE_TOTAL']) : 'BUDGET_MODE_INFINITE',
      budget: mode === 0 ? g.int(50, 2000) : 0,
    };
    if (mode !== 2) campaign.budget_optimize_on = mode === 0;
    s.campaigns.push(campaign);
    for (let a = 0; a < AD_GROUPS_PER_CAMPAIGN; a++) {
      const agId = g.id('17');
      s.adGroups.push({
        adgroup_id: agId,
        campaign_id: id,
        adgroup_name: `Ad group ${c + 1}.${a + 1}`,
        operation_status: word[g.status()],
        budget_mode: mode === 0 ? 'BUDGET_MODE_INFINITE' : 'BUDGET_MODE_DAY',
        budget: mode === 0 ? 0 : g.int(20, 300),
        bid_type: g.pick(['BID_TYPE_NO_BID', 'BID_TYPE_CUSTOM']),
        optimization_goal: g.pick(['CLICK', 'CONVERT', 'REACH']),
        schedule_start_time: formatTimeB(t.created),
        create_time: formatTimeB(t.created),
        modify_time: formatTimeB(t.updated),
      });
      for (let d = 0; d < ADS_PER_AD_GROUP; d++) {
        const adId = g.id('17');
        s.ads.push({
          ad_id: adId,
          adgroup_id: agId,
          campaign_id: id,
          ad_name: `Video ${c + 1}.${a + 1}.${d + 1}`,
          operation_status: word[g.status()],
          ad_format: 'SINGLE_VIDEO',
          ad_text: 'Watch till the end',
          video_id: `v10${g.prefix}${d}`,
          create_time: formatTimeB(t.created),
          modify_time: formatTimeB(t.updated),
        });
        s.leaves.push([id, agId, adId]);
      }
    }
  }
}

function providerC(g: Gen, s: Skeleton, sharedBudgets: Obj[], assetGroups: Obj[]): void {
  const word = { ACTIVE: 'ENABLED', PAUSED: 'PAUSED', ARCHIVED: 'PAUSED', DELETED: 'REMOVED' } as const;
  const shared = { id: g.id('9'), name: 'Shared search budget', amountMicros: g.int(100, 900) * 1_000_000, explicitlyShared: true };
  sharedBudgets.push(shared);
  for (let c = 0; c < DEMO_CAMPAIGNS_PER_ADVERTISER; c++) {
    const id = g.id('2');
    const automated = c % 6 === 5;
    const campaign: Obj = {
      id,
      name: `${automated ? 'PMax' : 'Search'} ${g.pick(NAMES)} ${c + 1}`,
      status: word[g.status()],
      advertisingChannelType: automated ? 'PERFORMANCE_MAX' : g.pick(['SEARCH', 'SEARCH', 'DISPLAY']),
    };
    if (c % 4 === 1) campaign.campaignBudget = shared.id;
    else if (c % 8 === 6) campaign.budgetTotalAmountMicros = g.int(1000, 20000) * 1_000_000;
    else campaign.budgetAmountMicros = g.int(10, 400) * 1_000_000 + g.pick([0, 500_000, 250_000]);
    s.campaigns.push(campaign);
    if (automated) {
      for (let a = 0; a < 2; a++) {
        assetGroups.push({
          id: g.id('6'),
          campaignId: id,
          name: `Asset group ${c + 1}.${a + 1}`,
          status: word[g.status()],
          finalUrls: ['https://shop.example/'],
        });
      }
      s.leaves.push([id]);
      continue;
    }
    for (let a = 0; a < AD_GROUPS_PER_CAMPAIGN; a++) {
      const agId = g.id('1');
      s.adGroups.push({
        id: agId,
        campaignId: id,
        name: `Ad group ${c + 1}.${a + 1}`,
        status: word[g.status()],
        type: 'SEARCH_STANDARD',
        cpcBidMicros: g.int(1, 9) * 250_000,
      });
      for (let d = 0; d < ADS_PER_AD_GROUP; d++) {
        const adId = g.id('7');
        s.ads.push({ adGroupId: agId, status: word[g.status()], ad: { id: adId, type: 'RESPONSIVE_SEARCH_AD', finalUrls: ['https://shop.example/'] } });
        s.leaves.push([id, agId, `${agId}~${adId}`]);
      }
    }
  }
}

function providerD(g: Gen, currency: string | null, s: Skeleton): void {
  const word = { ACTIVE: 'active', PAUSED: 'paused', ARCHIVED: 'archived', DELETED: 'deleted' } as const;
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const decimals = currency ? currencyDecimals(currency) : 2;
  for (let c = 0; c < DEMO_CAMPAIGNS_PER_ADVERTISER; c++) {
    const id = `cmp-${g.prefix}-${String(c + 1).padStart(4, '0')}`;
    const t = times(g);
    s.campaigns.push({
      id,
      name: `Assistant ${g.pick(NAMES)} ${c + 1}`,
      state: word[g.status()],
      goal: g.pick(['conversations', 'traffic', 'awareness']),
      budget: { amount: g.int(20, 800).toFixed(decimals), period: c % 5 === 0 ? 'lifetime' : 'daily' },
      created_at: iso(t.created),
      updated_at: iso(t.updated),
    });
    for (let a = 0; a < AD_GROUPS_PER_CAMPAIGN; a++) {
      const agId = `grp-${g.prefix}-${String(c + 1).padStart(4, '0')}-${a + 1}`;
      s.adGroups.push({
        id: agId,
        campaign_id: id,
        name: `Topics ${c + 1}.${a + 1}`,
        state: word[g.status()],
        topics: ['travel', 'cooking'],
        created_at: iso(t.created),
        updated_at: iso(t.updated),
      });
      for (let d = 0; d < ADS_PER_AD_GROUP; d++) {
        const adId = `ad-${g.prefix}-${String(c + 1).padStart(4, '0')}-${a + 1}-${d + 1}`;
        s.ads.push({
          id: adId,
          ad_group_id: agId,
          campaign_id: id,
          name: `Answer ad ${c + 1}.${a + 1}.${d + 1}`,
          state: word[g.status()],
          headline: 'Plan your trip',
          destination_url: 'https://travel.example/',
          created_at: iso(t.created),
          updated_at: iso(t.updated),
        });
        s.leaves.push([id, agId, adId]);
      }
    }
  }
}

function insights(g: Gen, provider: string, currency: string | null, leaves: Skeleton['leaves']): Obj[] {
  // Spend per row in the provider's own unit, from a whole-unit figure.
  const decimals = currency ? currencyDecimals(currency) : 2;
  const unit = (whole: number): number =>
    provider === 'provider_a'
      ? Math.round(whole * 10 ** decimals)
      : provider === 'provider_c'
        ? Math.round(whole * 100) * 10_000
        : Math.round(whole * 10 ** decimals) / 10 ** decimals;
  const rows: Obj[] = [];
  const campaignsSeen: string[] = [];
  for (const [campaignId] of leaves) if (!campaignsSeen.includes(campaignId)) campaignsSeen.push(campaignId);
  const lastDelivering = campaignsSeen[DELIVERING_CAMPAIGNS - 1];
  const delivering = lastDelivering === undefined ? leaves.length : leaves.findLastIndex(([c]) => c === lastDelivering) + 1;
  for (let day = DEMO_INSIGHT_DAYS - 1; day >= 0; day--) {
    const date = new Date(LAST_DAY_MS - day * DAY).toISOString().slice(0, 10);
    for (const [campaignId, adGroupId, adId] of leaves.slice(0, delivering)) {
      const impressions = g.int(100, 4000);
      const clicks = Math.floor(impressions * (0.005 + g.rand() * 0.03));
      const row: Obj = {
        date,
        campaignId,
        spend: unit(impressions * (0.002 + g.rand() * 0.01)),
        impressions,
        clicks,
        reach: Math.floor(impressions * (0.6 + g.rand() * 0.3)),
        conversions: Math.floor(clicks * g.rand() * 0.1),
      };
      if (adGroupId) row.adGroupId = adGroupId;
      if (adId) row.adId = adId;
      rows.push(row);
    }
  }
  return rows;
}

/** The provider-side world of one demo advertiser (keys of providers/fixture-schema.ts). */
export function generateDemoEntities(advertiser: DemoAdvertiserSeed, seed = 1): Record<string, unknown> {
  const g = new Gen(advertiser.id, seed);
  const s: Skeleton = { campaigns: [], adGroups: [], ads: [], leaves: [] };
  const out: Record<string, unknown> = {};
  switch (advertiser.provider) {
    case 'provider_a': {
      const creatives: Obj[] = [];
      providerA(g, 10 ** (advertiser.currency ? currencyDecimals(advertiser.currency) : 2), s, creatives);
      out.creatives = creatives;
      break;
    }
    case 'provider_b':
      providerB(g, s);
      break;
    case 'provider_c': {
      const sharedBudgets: Obj[] = [];
      const assetGroups: Obj[] = [];
      providerC(g, s, sharedBudgets, assetGroups);
      Object.assign(out, { sharedBudgets, assetGroups });
      break;
    }
    case 'provider_d':
      providerD(g, advertiser.currency, s);
      break;
    default:
      return {};
  }
  return { campaigns: s.campaigns, adGroups: s.adGroups, ads: s.ads, ...out, insights: insights(g, advertiser.provider, advertiser.currency, s.leaves) };
}
