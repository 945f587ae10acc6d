// The resources module: each noun declared once, its `--fields` paths derived
// from the response schemas (never copied), and every fact it states about
// operations true of the operation table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATION_TABLE } from '../../../src/contract/operations.js';
import { resourceFields } from '../../../src/contract/resource-fields.js';
import { RESOURCES, resourceEntries } from '../../../src/contract/resources.js';
import { resourceView } from '../../../src/cli/output/resources.js';
import { argKind, flagKind, ID_SOURCES } from '../../../src/cli/complete-kinds.js';
import { defaultFlagName } from '../../../src/contract/command-line.js';
import { editTarget } from '../../../src/flows/edit-targets.js';

const generated = JSON.parse(readFileSync(new URL('../../../src/contract/generated/resource-fields.json', import.meta.url), 'utf8')) as Record<
  string,
  string[]
>;

describe('resource fields', () => {
  it('src/contract/generated/resource-fields.json is current (regenerate: npm run gen)', () => {
    expect(generated).toEqual(resourceFields());
  });
  it("a page answers its rows: the row's fields, nested objects as dotted paths, open objects as x.*", () => {
    const f = resourceFields();
    expect(f.campaign!.slice(0, 3)).toEqual(['advertiserId', 'id', 'name']);
    expect(f.campaign).not.toContain('data');
    expect(f.campaign).not.toContain('nextCursor');
    expect(f.mutation).toEqual(expect.arrayContaining(['target.id', 'changes.budget.amount', 'changes.budget.type', 'error.*', 'entity.*', 'completedAt']));
    // A get and a list of one noun: the union (a Brand's summary and its whole row).
    expect(f.brand).toEqual(expect.arrayContaining(['sections.voice', 'identity', 'logoUrl']));
    // The reserve answer is an Asset too: its upload URL is a field of the noun.
    expect(f.asset).toEqual(expect.arrayContaining(['uploadUrl', 'registrations', 'sha256']));
  });
  for (const [name, r] of resourceEntries()) {
    if (r.rows.length === 0) continue;
    it(`${name}: its id, name, columns, importance and metrics are among its fields`, () => {
      const fields = resourceView(name).fields;
      expect(fields).toBeDefined();
      const named = [r.id, ...(r.name ? [r.name] : []), ...r.columns, ...(r.importance ?? []), ...(r.metrics ?? [])];
      expect(named.filter((f) => !fields!.includes(f))).toEqual([]);
    });
  }
});

describe('facts about operations', () => {
  const kind = (id: keyof typeof OPERATION_TABLE) => OPERATION_TABLE[id].kind;
  it('rows come from lists, gets and the writes that answer the row', () => {
    for (const [, r] of resourceEntries()) for (const id of r.rows) expect(['list', 'get', 'create', 'update', 'action']).toContain(kind(id));
  });
  it('an edit reads with a get and writes with an update; a delete is named through a get; completion lists', () => {
    for (const [name, r] of resourceEntries()) {
      if (r.edit) {
        expect([name, kind(r.edit.read)]).toEqual([name, 'get']);
        expect([name, kind(r.edit.update)]).toEqual([name, 'update']);
      }
      if (r.namedOnDelete) {
        expect(r.name).toBeDefined();
        expect([kind(r.namedOnDelete.delete), kind(r.namedOnDelete.get)]).toEqual(['delete', 'get']);
      }
      if (r.completion) expect(kind(r.completion.list)).toBe('list');
    }
  });
  it('a Line Item is edited through its plan', () => {
    expect(RESOURCES.lineItem.edit).toMatchObject({ read: 'getCampaignPlan', within: 'lineItems' });
  });
});

describe('what the CLI derives from the nouns', () => {
  it('completion lists the ids it listed, from the same operations, under the same words', () => {
    expect(ID_SOURCES).toEqual({
      advertiser: { operation: 'listCampaigns', field: 'advertiserId', limit: 500, pages: 2 },
      brand: { operation: 'listBrands', field: 'slug', limit: 100, pages: 1 },
      plan: { operation: 'listCampaignPlans', field: 'slug', limit: 100, pages: 1 },
      skill: { operation: 'listSkills', field: 'slug', limit: 100, pages: 1 },
      asset: { operation: 'listAssets', field: 'id', limit: 100, pages: 1 },
      mutation: { operation: 'listMutations', field: 'id', limit: 100, pages: 1 },
    });
    expect(['advertiser', 'live', 'register', 'mutation-id', 'profile', 'input', 'toString'].map(flagKind)).toEqual([
      'advertiser',
      'advertiser',
      'advertiser',
      'mutation',
      'profile',
      'file',
      undefined,
    ]);
    expect(argKind(['skills', 'get'], 'slug')).toBe('skill');
    expect(argKind(['assets', 'delete'], 'id')).toBe('asset');
    expect(argKind(['observe', 'campaigns'], 'id')).toBeUndefined();
    expect(argKind(['brands', 'personas', 'list'], 'brand')).toBe('brand');
    expect(argKind(['plans', 'line-items', 'add'], 'plan')).toBe('plan');
  });
  it("filters name the noun a field refers to (the spec's --advertiser, --campaign, --ad-group)", () => {
    expect(['advertiserId', 'campaignId', 'adGroupId', 'entityId'].map(defaultFlagName)).toEqual(['advertiser', 'campaign', 'ad-group', 'entity-id']);
  });
  it('edits and delete prompts read the facts of their noun', () => {
    expect(editTarget('updateBrand')).toMatchObject({ noun: 'brand', readOperation: 'getBrand', blocks: ['identity', 'voice', 'guidelines', 'messaging'] });
    const li = editTarget('updateLineItem');
    expect(li.pick!({ lineItems: [{ lineItemId: 'li_1' }, { lineItemId: 'li_2' }] }, { slug: 'q3', lineItemId: 'li_2' })).toEqual({ lineItemId: 'li_2' });
    expect(li.frozen!({ status: 'approved' })).toBe('the plan is approved, and only a draft plan and its Line Items change');
    expect(li.frozen!({ status: 'draft' })).toBeUndefined();
    expect(() => editTarget('deleteBrand')).toThrow(/no edit target/);
  });
});
