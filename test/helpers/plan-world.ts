// The set-up the plan tests share (h28 verify/pacing, w36 fix/suggest, the mcp flow tools): advertisers with
// generated entities and 90 days of Insights up to 2026-09-30, their campaigns as the service lists them, and
// an approved plan whose Line Items were executed by given entities. One copy instead of one per test file.
import { generateDemoEntities } from '../../src/sandbox/providers/demo-entities.js';
import type { WorldInput } from '../../src/sandbox/fixtures/schema.js';
import { minimalWorld, withAdvertiser } from './sandbox.js';

/** cliAgainst(sb).api: the service's answer as JSON (so `any`, typed where read). */
type Api = (method: string, path: string, body?: unknown) => Promise<any>;

export interface GeneratedAdvertiser {
  id: string;
  currency: string | null;
  provider?: 'provider_a' | 'provider_b';
  /** Default connected; a not_connected one gets no entities. */
  connection?: 'connected' | 'not_connected';
}

/** minimalWorld plus these advertisers, each connected one with generated entities and Insights. */
export function generatedWorld(advertisers: readonly GeneratedAdvertiser[]): WorldInput {
  let w = minimalWorld();
  for (const a of advertisers) {
    const seed = { id: a.id, provider: a.provider ?? 'provider_a', name: a.id, currency: a.currency };
    const connection = a.connection ?? 'connected';
    w = withAdvertiser(w, { ...seed, connection, ...(connection === 'connected' ? generateDemoEntities(seed) : {}) });
  }
  return w;
}

export type PlanCampaign = {
  id: string;
  name: string;
  status: string;
  budget: number | null;
  budgetLevel: string | null;
  budgetType: 'daily' | 'lifetime' | null;
  objective: string | null;
};

/** The advertiser's stored campaigns (its first 100). */
export const campaignsOf = async (api: Api, advertiserId: string): Promise<PlanCampaign[]> =>
  (await api('GET', `/observe/${advertiserId}/campaigns?limit=100`)).data;

/** ACTIVE campaigns carrying a daily budget of their own. */
export const ownDailyBudget = async (api: Api, advertiserId: string): Promise<PlanCampaign[]> =>
  (await campaignsOf(api, advertiserId)).filter((c) => c.status === 'ACTIVE' && c.budgetLevel === 'campaign' && c.budgetType === 'daily' && c.budget !== null);

export interface LineItemSpec {
  /** Default `li <index>`. */
  name?: string;
  advertiserId: string;
  /** Default provider_a. */
  provider?: string;
  budget: number | null;
  budgetType: 'daily' | 'lifetime' | null;
  /** Default OUTCOME_SALES; null sends none. */
  objective?: string | null;
  executions: Array<{ entityType: string; entityId: string }>;
}

/** Executions by these campaigns. */
export const byCampaigns = (ids: readonly string[]) => ids.map((entityId) => ({ entityType: 'campaign', entityId }));

/** A Line Item of `advertiserId` that matches campaign `c` exactly (budget, type, objective), executed by it. */
export const matchingLine = (advertiserId: string, c: PlanCampaign, name?: string): LineItemSpec => ({
  ...(name === undefined ? {} : { name }),
  advertiserId,
  budget: c.budget,
  budgetType: c.budgetType,
  objective: c.objective,
  executions: byCampaigns([c.id]),
});

/** An approved plan (USD unless said) flying `startDate`..`endDate`, with these Line Items and executions; its Line Item ids in order. */
export async function approvedPlan(
  api: Api,
  slug: string,
  items: readonly LineItemSpec[],
  flight: { startDate: string; endDate: string; currency?: string },
): Promise<string[]> {
  const { startDate, endDate } = flight;
  await api('POST', '/context/campaign-plans', { slug, name: slug, currency: flight.currency ?? 'USD', startDate, endDate });
  const ids: string[] = [];
  for (const [i, li] of items.entries()) {
    const added = await api('POST', `/context/campaign-plans/${slug}/line-items`, {
      name: li.name ?? `li ${i}`,
      provider: li.provider ?? 'provider_a',
      advertiserId: li.advertiserId,
      budget: li.budget,
      budgetType: li.budgetType,
      startDate,
      endDate,
      objective: li.objective === undefined ? 'OUTCOME_SALES' : li.objective,
    });
    ids.push(added.lineItemId);
  }
  await api('POST', `/context/campaign-plans/${slug}/approve`, {});
  for (const [i, li] of items.entries()) {
    for (const e of li.executions)
      await api('POST', `/context/campaign-plans/${slug}/line-items/${ids[i]}/executions`, { provider: li.provider ?? 'provider_a', ...e });
  }
  return ids;
}
