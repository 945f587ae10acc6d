// The Skill Catalog: playbooks the service provides, each with a version that
// grows when the service revises it. Fixed in code; a sandbox can swap the
// list (services.settings.skillCatalog) so tests can publish a new version and
// watch re-import pick it up.
import type { CatalogSkill } from '../../../contract/schemas/context.js';

const at = Date.UTC(2026, 8, 1);

export const DEFAULT_SKILL_CATALOG: readonly CatalogSkill[] = [
  {
    catalogSlug: 'budget-pacing',
    name: 'Budget pacing check',
    description: 'Compare spend to plan each day and flag campaigns pacing too fast or too slow.',
    version: '1.2.0',
    updatedAt: at,
    body: [
      '# Budget pacing check',
      '',
      "1. Read yesterday's spend per campaign from Insights (`/observe/insights`, level campaign, group by day).",
      '2. Expected spend = budget × elapsed share of the flight (daily budgets: the budget itself).',
      '3. Flag a campaign when actual spend is outside 80–120 % of expected for two days running.',
      '4. Propose a budget change as a Mutation; never apply it without approval.',
    ].join('\n'),
  },
  {
    catalogSlug: 'creative-fatigue',
    name: 'Creative fatigue review',
    description: 'Spot ads whose click-through rate decays as frequency climbs, and suggest rotation.',
    version: '1.0.3',
    updatedAt: at,
    body: [
      '# Creative fatigue review',
      '',
      '- Pull 28 days of ad-level Insights grouped by week.',
      '- An ad is fatigued when CTR fell three weeks in a row while impressions held.',
      '- Suggest pausing it and naming two fresh Assets from the library to replace it.',
    ].join('\n'),
  },
  {
    catalogSlug: 'launch-checklist',
    name: 'Campaign launch checklist',
    description: 'What to verify before a Campaign Plan line item goes live.',
    version: '2.0.0',
    updatedAt: at,
    body: [
      '# Campaign launch checklist',
      '',
      '- [ ] Line item validates and the plan is approved.',
      '- [ ] Advertiser connected with write access.',
      '- [ ] Budget type and amount match the plan; dates inside the flight.',
      '- [ ] Brand voice and guidelines respected in every headline.',
    ].join('\n'),
  },
  {
    catalogSlug: 'weekly-report',
    name: 'Weekly performance report',
    description: 'A short weekly summary per brand: spend, results, what changed and why.',
    version: '1.1.0',
    updatedAt: at,
    body: [
      '# Weekly performance report',
      '',
      'For each Brand: spend vs plan, conversions and cost per conversion, the three biggest movers,',
      'and every Mutation started that week with its outcome.',
    ].join('\n'),
  },
  {
    catalogSlug: 'naming-conventions',
    name: 'Naming conventions',
    description: 'One naming scheme for campaigns and ad groups across providers.',
    version: '1.0.0',
    updatedAt: at,
    body: [
      '# Naming conventions',
      '',
      '`{brand}_{market}_{objective}_{yyyymm}` for campaigns, `{audience}_{placement}` for ad groups.',
      'Rename drifted entities with a rename Mutation.',
    ].join('\n'),
  },
];

/** The Skill Catalog of a sandbox: its `settings.skillCatalog` (a test publishing a new version), else the built-in one. */
export function skillCatalog(settings: { skillCatalog?: readonly CatalogSkill[] }): readonly CatalogSkill[] {
  return settings.skillCatalog ?? DEFAULT_SKILL_CATALOG;
}

export function findCatalogSkill(catalog: readonly CatalogSkill[], catalogSlug: string): CatalogSkill | undefined {
  return catalog.find((c) => c.catalogSlug === catalogSlug);
}
