// What validate and readiness find about a Line Item. Validation is about the
// Line Item's own content against its plan and the organization; readiness
// adds what execution needs now: an approved plan and an advertiser that is
// connected with write access.
import type { LineItemProblem, LineItemReadiness, LineItemValidation } from '../../../contract/schemas/context.js';
import { ownedAdvertiser } from '../advertisers.js';
import { fromMinorUnits } from './money.js';
import { lineItemsOf, LINE_ITEMS_TABLE } from './plan-rows.js';
import type { LineItemRow, PlanRow } from './plan-rows.js';
import type { Scope } from '../scope.js';

const problem = (code: string, field: string | null, message: string): LineItemProblem => ({ code, field, message });

/** Days from start to end, both included. */
function flightDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The most a Line Item can spend over its flight, in minor units: a lifetime
 * budget, or a daily budget times its days. Null when it cannot be told yet.
 */
export function spendCeiling(li: Pick<LineItemRow, 'budget_minor' | 'budget_type' | 'start_date' | 'end_date'>): number | null {
  if (li.budget_minor === null || li.budget_type === null) return null;
  if (li.budget_type === 'lifetime') return li.budget_minor;
  if (li.start_date === null || li.end_date === null || li.end_date < li.start_date) return null;
  return li.budget_minor * flightDays(li.start_date, li.end_date);
}

export function problemsOf(s: Scope, plan: PlanRow, li: LineItemRow): LineItemProblem[] {
  const problems: LineItemProblem[] = [];
  const required: Array<[keyof LineItemRow, string]> = [
    ['provider', 'provider'],
    ['advertiser_id', 'advertiserId'],
    ['budget_minor', 'budget'],
    ['budget_type', 'budgetType'],
    ['start_date', 'startDate'],
    ['end_date', 'endDate'],
  ];
  // provider_c campaigns carry no objective (spec: null on every provider_c campaign).
  if (li.provider !== 'provider_c') required.push(['objective', 'objective']);
  for (const [column, field] of required) {
    if (li[column] === null) problems.push(problem('missing_field', field, `${field} is not set.`));
  }

  if (li.advertiser_id !== null) {
    const advertiser = ownedAdvertiser(s.db, s.orgId, li.advertiser_id);
    if (!advertiser) {
      problems.push(problem('advertiser_not_owned', 'advertiserId', 'The advertiser is not one of your organization’s.'));
    } else {
      if (li.provider !== null && advertiser.provider !== li.provider) {
        problems.push(problem('provider_mismatch', 'provider', `The advertiser is on ${advertiser.provider}, not ${li.provider}.`));
      }
      if (advertiser.currency !== null && advertiser.currency !== plan.currency) {
        problems.push(problem('currency_mismatch', 'advertiserId', `The advertiser spends in ${advertiser.currency}; the plan is in ${plan.currency}.`));
      }
    }
  }

  if (plan.start_date !== null && li.start_date !== null && li.start_date < plan.start_date) {
    problems.push(problem('dates_outside_plan', 'startDate', `startDate is before the plan starts (${plan.start_date}).`));
  }
  if (plan.end_date !== null && li.end_date !== null && li.end_date > plan.end_date) {
    problems.push(problem('dates_outside_plan', 'endDate', `endDate is after the plan ends (${plan.end_date}).`));
  }

  if (plan.budget_minor !== null) {
    const own = spendCeiling(li);
    const budget = fromMinorUnits(plan.budget_minor, plan.currency);
    if (own !== null && own > plan.budget_minor) {
      problems.push(
        problem(
          'budget_over_plan',
          'budget',
          `This Line Item can spend ${fromMinorUnits(own, plan.currency)} ${plan.currency}, more than the plan budget of ${budget}.`,
        ),
      );
    } else {
      const total = lineItemsOf(s, plan).reduce((sum, other) => sum + (spendCeiling(other) ?? 0), 0);
      if (total > plan.budget_minor) {
        problems.push(
          problem(
            'plan_budget_exceeded',
            'budget',
            `All Line Items together can spend ${fromMinorUnits(total, plan.currency)} ${plan.currency}, more than the plan budget of ${budget}.`,
          ),
        );
      }
    }
  }
  return problems;
}

/** Validate and remember the result on the Line Item (not a user write: the revision stays). */
export function validateLineItem(s: Scope, plan: PlanRow, li: LineItemRow): LineItemValidation {
  const problems = problemsOf(s, plan, li);
  const result: LineItemValidation = { lineItemId: li.id, valid: problems.length === 0, problems, checkedAt: s.clock.now() };
  s.db.prepare(`UPDATE ${LINE_ITEMS_TABLE} SET validation = ? WHERE seq = ? AND revision = ?`).run(JSON.stringify(result), li.seq, li.revision);
  return result;
}

export function readinessOf(s: Scope, plan: PlanRow, li: LineItemRow): LineItemReadiness {
  const missing: LineItemReadiness['missing'] = [];
  if (plan.status === 'draft') missing.push({ code: 'plan_not_approved', message: 'The Campaign Plan is not approved yet.' });
  if (plan.status === 'archived') missing.push({ code: 'plan_archived', message: 'The Campaign Plan is archived.' });
  const problems = problemsOf(s, plan, li);
  if (problems.length > 0) {
    missing.push({ code: 'validation_failed', message: 'The Line Item does not validate.', problems });
  }
  const advertiser = li.advertiser_id === null ? null : ownedAdvertiser(s.db, s.orgId, li.advertiser_id);
  if (advertiser?.connection === 'not_connected') {
    missing.push({ code: 'provider_not_connected', message: `The advertiser has no usable ${advertiser.provider} connection; a person must reconnect it.` });
  } else if (advertiser?.connection === 'no_write_access') {
    missing.push({
      code: 'missing_write_access',
      message: 'The advertiser’s connection has no write access; a person must reconnect it and grant write access.',
    });
  }
  return { lineItemId: li.id, ready: missing.length === 0, missing, checkedAt: s.clock.now() };
}
