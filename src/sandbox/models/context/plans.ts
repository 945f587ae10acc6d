// Campaign Plans: by slug, in one currency, amounts in whole units of it.
// States (docs/decisions.md):
//   draft ──approve──▶ approved ──archive──▶ archived
//     └──────────────archive─────────────────▲
// draft: everything editable. approved: frozen — the plan and its Line Items
// refuse edits (409 plan_frozen); only executions can be recorded, and the plan
// can be archived. archived: read-only and terminal; may be deleted.
import { nextSeq } from '../../store/schema/seq-high-water.js';
import type { CreateCampaignPlan, UpdateCampaignPlan } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { problemsOf } from './line-item-checks.js';
import { currencyDecimals } from '../../providers/units.js';
import { assertAmount, assertCurrency } from './money.js';
import { assertDateOrder, assertEditable, getPlan, LINE_ITEMS_TABLE, lineItemsOf, PLANS_TABLE } from './plan-rows.js';
import type { PlanRow } from './plan-rows.js';
import { checkRevision, writeWithRevision } from './revision.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation, slugConflict } from './slug.js';

export function createPlan(s: Scope, body: CreateCampaignPlan): PlanRow {
  assertSlug(body.slug);
  assertCurrency(body.currency);
  const budget = body.budget == null ? null : assertAmount(body.budget, body.currency, 'budget');
  const start = body.startDate ?? null;
  const end = body.endDate ?? null;
  assertDateOrder(start, end, 'Campaign Plan');
  const now = s.clock.now();
  try {
    s.db
      .prepare(
        `INSERT INTO ${PLANS_TABLE} (seq, org_id, slug, name, description, currency, budget_minor, start_date, end_date, status, revision, created_at, updated_at)
         VALUES (${nextSeq(PLANS_TABLE)}, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', 1, ?, ?)`,
      )
      .run(s.orgId, body.slug, body.name, body.description ?? '', body.currency, budget, start, end, now, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(body.slug, 'Campaign Plan');
    throw error;
  }
  return getPlan(s, body.slug);
}

/** Minor units in one currency → another, or null when the amount has too many decimals for it. */
function convertMinor(minor: number, from: string, to: string): number | null {
  const shift = currencyDecimals(to) - currencyDecimals(from);
  if (shift >= 0) return minor * 10 ** shift;
  const factor = 10 ** -shift;
  return minor % factor === 0 ? minor / factor : null;
}

export function updatePlan(s: Scope, slug: string, body: UpdateCampaignPlan): PlanRow {
  return s.db.transaction(() => {
    const plan = getPlan(s, slug);
    const { revision, status, ...changes } = body;
    const archiving = status === 'archived';
    const editing = Object.values(changes).some((v) => v !== undefined);
    if (plan.status === 'archived' || editing || !archiving) assertEditable(plan);

    const set: Record<string, unknown> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.description !== undefined) set.description = changes.description;
    const currency = changes.currency ?? plan.currency;
    if (changes.currency !== undefined && changes.currency !== plan.currency) {
      assertCurrency(changes.currency);
      set.currency = changes.currency;
      // Amounts are whole units of the plan currency: they keep their value, and
      // must still fit the new currency's decimals (50.5 EUR cannot become JPY).
      const refuse = () => domainError('invalid_amount', `An amount of this plan has more decimals than ${changes.currency} allows.`);
      if (changes.budget === undefined && plan.budget_minor !== null) {
        const converted = convertMinor(plan.budget_minor, plan.currency, currency);
        if (converted === null) throw refuse();
        set.budget_minor = converted;
      }
      const update = s.db.prepare(`UPDATE ${LINE_ITEMS_TABLE} SET budget_minor = ?, validation = NULL WHERE seq = ?`);
      for (const li of lineItemsOf(s, plan)) {
        if (li.budget_minor === null) continue;
        const converted = convertMinor(li.budget_minor, plan.currency, currency);
        if (converted === null) throw refuse();
        update.run(converted, li.seq);
      }
    }
    if (changes.budget !== undefined) set.budget_minor = changes.budget === null ? null : assertAmount(changes.budget, currency, 'budget');
    if (changes.startDate !== undefined) set.start_date = changes.startDate;
    if (changes.endDate !== undefined) set.end_date = changes.endDate;
    assertDateOrder(
      changes.startDate !== undefined ? changes.startDate : plan.start_date,
      changes.endDate !== undefined ? changes.endDate : plan.end_date,
      'Campaign Plan',
    );
    if (archiving) {
      set.status = 'archived';
      set.archived_at = s.clock.now();
    }
    writeWithRevision({ db: s.db, table: PLANS_TABLE, seq: plan.seq, expected: revision, set, now: s.clock.now() });
    return getPlan(s, slug);
  })();
}

/**
 * draft → approved, when every Line Item validates (and there is at least one);
 * otherwise 422 plan_invalid with each failing Line Item's problems. Approving
 * an approved plan answers it unchanged (safe to retry).
 */
export function approvePlan(s: Scope, slug: string, revision: number | undefined): PlanRow {
  return s.db.transaction(() => {
    const plan = getPlan(s, slug);
    if (plan.status === 'approved') return plan;
    if (plan.status === 'archived') throw domainError('plan_frozen', 'The Campaign Plan is archived and cannot be approved.');
    checkRevision(plan.revision, revision);
    const items = lineItemsOf(s, plan);
    if (items.length === 0) {
      throw domainError('plan_invalid', 'A Campaign Plan needs at least one Line Item to be approved.', { lineItems: [] });
    }
    const failing = items.map((li) => ({ lineItemId: li.id, problems: problemsOf(s, plan, li) })).filter((r) => r.problems.length > 0);
    if (failing.length > 0) {
      throw domainError('plan_invalid', 'Some Line Items do not validate; fix them, then approve.', { lineItems: failing });
    }
    const now = s.clock.now();
    writeWithRevision({ db: s.db, table: PLANS_TABLE, seq: plan.seq, expected: revision, set: { status: 'approved', approved_at: now }, now });
    return getPlan(s, slug);
  })();
}

/** Drafts and archived plans can be deleted (with their Line Items); an approved plan must be archived first. */
export function deletePlan(s: Scope, slug: string, revision: number | undefined): void {
  s.db.transaction(() => {
    const plan = getPlan(s, slug);
    if (plan.status === 'approved') {
      throw domainError('plan_frozen', 'An approved Campaign Plan cannot be deleted; archive it first.');
    }
    checkRevision(plan.revision, revision);
    s.db.prepare(`DELETE FROM ${PLANS_TABLE} WHERE seq = ?`).run(plan.seq);
  })();
}
