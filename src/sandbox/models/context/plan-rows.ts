// Row shapes of Campaign Plans, Line Items and executions, and their wire
// forms. Amounts are minor units here and whole units on the wire.
import type { CampaignPlan, CampaignPlanSummary, LineItem, LineItemExecution } from '../../../contract/schemas/context.js';
import { validationSchema } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { fromMinorUnits } from './money.js';
import type { Scope } from '../scope.js';
import { keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type PlanRow = {
  seq: number;
  org_id: string;
  slug: string;
  name: string;
  description: string;
  currency: string;
  budget_minor: number | null;
  start_date: string | null;
  end_date: string | null;
  status: 'draft' | 'approved' | 'archived';
  approved_at: number | null;
  archived_at: number | null;
  revision: number;
  created_at: number;
  updated_at: number;
};

export type LineItemRow = {
  seq: number;
  id: string;
  plan_seq: number;
  name: string;
  provider: LineItem['provider'];
  advertiser_id: string | null;
  budget_minor: number | null;
  budget_type: LineItem['budgetType'];
  start_date: string | null;
  end_date: string | null;
  objective: string | null;
  /** JSON of the last LineItemValidation since the last edit, or null. */
  validation: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
};

export type ExecutionRow = {
  seq: number;
  id: string;
  line_item_seq: number;
  provider: LineItemExecution['provider'];
  entity_type: LineItemExecution['entityType'];
  entity_id: string;
  mutation_id: string | null;
  recorded_at: number;
};

export const PLANS_TABLE = 'context_campaign_plans';
export const LINE_ITEMS_TABLE = 'context_line_items';
export const EXECUTIONS_TABLE = 'context_line_item_executions';

function planHead(r: PlanRow) {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    currency: r.currency,
    budget: fromMinorUnits(r.budget_minor, r.currency),
    startDate: r.start_date,
    endDate: r.end_date,
    status: r.status,
    approvedAt: r.approved_at,
    archivedAt: r.archived_at,
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export const toPlanSummary = (r: PlanRow & { line_item_count: number }): CampaignPlanSummary => ({
  ...planHead(r),
  lineItemCount: r.line_item_count,
});

export function toExecution(r: ExecutionRow, lineItemId: string): LineItemExecution {
  return {
    executionId: r.id,
    lineItemId,
    provider: r.provider,
    entityType: r.entity_type,
    entityId: r.entity_id,
    mutationId: r.mutation_id,
    recordedAt: r.recorded_at,
  };
}

export function toLineItem(s: Scope, r: LineItemRow, plan: PlanRow): LineItem {
  const executions = s.db.prepare<[number], ExecutionRow>(`SELECT * FROM ${EXECUTIONS_TABLE} WHERE line_item_seq = ? ORDER BY seq`).all(r.seq);
  return {
    lineItemId: r.id,
    planSlug: plan.slug,
    name: r.name,
    provider: r.provider,
    advertiserId: r.advertiser_id,
    budget: fromMinorUnits(r.budget_minor, plan.currency),
    budgetType: r.budget_type,
    startDate: r.start_date,
    endDate: r.end_date,
    objective: r.objective,
    lastValidation: r.validation === null ? null : validationSchema.parse(JSON.parse(r.validation)),
    executions: executions.map((e) => toExecution(e, r.id)),
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function lineItemsOf(s: Scope, plan: PlanRow): LineItemRow[] {
  return s.db.prepare<[number], LineItemRow>(`SELECT * FROM ${LINE_ITEMS_TABLE} WHERE plan_seq = ? ORDER BY seq`).all(plan.seq);
}

export const toPlan = (s: Scope, r: PlanRow): CampaignPlan => ({
  ...planHead(r),
  lineItems: lineItemsOf(s, r).map((li) => toLineItem(s, li, r)),
});

export function getPlan(s: Scope, slug: string): PlanRow {
  const row = s.db.prepare<[string, string], PlanRow>(`SELECT * FROM ${PLANS_TABLE} WHERE org_id = ? AND slug = ?`).get(s.orgId, slug);
  if (!row) throw domainError('not_found', 'No Campaign Plan with this slug in your organization.');
  return row;
}

export function getLineItem(s: Scope, plan: PlanRow, lineItemId: string): LineItemRow {
  const row = s.db.prepare<[number, string], LineItemRow>(`SELECT * FROM ${LINE_ITEMS_TABLE} WHERE plan_seq = ? AND id = ?`).get(plan.seq, lineItemId);
  if (!row) throw domainError('not_found', 'No Line Item with this id in the Campaign Plan.');
  return row;
}

/** Approval freezes a plan and its Line Items; archived plans are read-only. */
export function assertEditable(plan: PlanRow): void {
  if (plan.status === 'approved') {
    throw domainError('plan_frozen', 'The Campaign Plan is approved, which freezes it and its Line Items; archive it and write a new plan to change it.');
  }
  if (plan.status === 'archived') {
    throw domainError('plan_frozen', 'The Campaign Plan is archived and can no longer change.');
  }
}

/** Both dates known and the end before the start: refused content. */
export function assertDateOrder(start: string | null, end: string | null, what: string): void {
  if (start !== null && end !== null && end < start) {
    throw domainError('invalid_dates', `The ${what}'s endDate is before its startDate.`);
  }
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/campaign-plans: newest first, Line Items counted, not listed; `status` filters. */
export function listPlans(s: Scope, query: ListQuery<{ status?: PlanRow['status'] | undefined }>): Page<CampaignPlanSummary> {
  const { cursor, limit, ...filters } = query;
  return keysetPage<PlanRow & { line_item_count: number }, CampaignPlanSummary>({
    db: s.db,
    secret: s.secret,
    scope: 'listCampaignPlans',
    filters,
    cursor,
    limit,
    select: 'p.*, (SELECT COUNT(*) FROM context_line_items li WHERE li.plan_seq = p.seq) AS line_item_count',
    from: `${PLANS_TABLE} p`,
    seq: 'p.seq',
    where: ['p.org_id = @org', filters.status ? 'p.status = @status' : null],
    params: { org: s.orgId, status: filters.status },
    map: toPlanSummary,
  });
}
