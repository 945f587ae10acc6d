// Line Items: rows of a Campaign Plan with no handle of their own, addressed by
// a service-minted lineItemId through the plan. Only name is needed to add one
// (a plan is written step by step); validate says what else is missing. All
// writes need a draft plan (approval freezes them: 409 plan_frozen).
import { nextSeq } from '../../store/schema/seq-high-water.js';
import type { AddLineItem, LineItemExecution, RecordExecution, UpdateLineItem } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { assertAmount } from './money.js';
import { assertDateOrder, assertEditable, EXECUTIONS_TABLE, getLineItem, LINE_ITEMS_TABLE, toExecution } from './plan-rows.js';
import type { ExecutionRow, LineItemRow, PlanRow } from './plan-rows.js';
import { checkRevision, writeWithRevision } from './revision.js';
import { mintId } from './scope.js';
import type { Scope } from '../scope.js';

export function addLineItem(s: Scope, plan: PlanRow, body: AddLineItem): LineItemRow {
  return s.db.transaction(() => {
    assertEditable(plan);
    const budget = body.budget == null ? null : assertAmount(body.budget, plan.currency, 'budget');
    assertDateOrder(body.startDate ?? null, body.endDate ?? null, 'Line Item');
    const id = mintId('li');
    const now = s.clock.now();
    s.db
      .prepare(
        `INSERT INTO ${LINE_ITEMS_TABLE} (seq, id, plan_seq, name, provider, advertiser_id, budget_minor, budget_type, start_date, end_date, objective, validation, revision, created_at, updated_at)
         VALUES (${nextSeq(LINE_ITEMS_TABLE)}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?)`,
      )
      .run(
        id,
        plan.seq,
        body.name,
        body.provider ?? null,
        body.advertiserId ?? null,
        budget,
        body.budgetType ?? null,
        body.startDate ?? null,
        body.endDate ?? null,
        body.objective ?? null,
        now,
        now,
      );
    return getLineItem(s, plan, id);
  })();
}

export function updateLineItem(s: Scope, plan: PlanRow, lineItemId: string, body: UpdateLineItem): LineItemRow {
  return s.db.transaction(() => {
    const li = getLineItem(s, plan, lineItemId);
    assertEditable(plan);
    const { revision, ...changes } = body;
    const set: Record<string, unknown> = { validation: null }; // an edit makes the last validation stale
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.provider !== undefined) set.provider = changes.provider;
    if (changes.advertiserId !== undefined) set.advertiser_id = changes.advertiserId;
    if (changes.budget !== undefined) set.budget_minor = changes.budget === null ? null : assertAmount(changes.budget, plan.currency, 'budget');
    if (changes.budgetType !== undefined) set.budget_type = changes.budgetType;
    if (changes.startDate !== undefined) set.start_date = changes.startDate;
    if (changes.endDate !== undefined) set.end_date = changes.endDate;
    if (changes.objective !== undefined) set.objective = changes.objective;
    assertDateOrder(
      changes.startDate !== undefined ? changes.startDate : li.start_date,
      changes.endDate !== undefined ? changes.endDate : li.end_date,
      'Line Item',
    );
    return writeWithRevision<LineItemRow>({ db: s.db, table: LINE_ITEMS_TABLE, seq: li.seq, expected: revision, set, now: s.clock.now() });
  })();
}

export function deleteLineItem(s: Scope, plan: PlanRow, lineItemId: string, revision: number | undefined): void {
  s.db.transaction(() => {
    const li = getLineItem(s, plan, lineItemId);
    assertEditable(plan);
    checkRevision(li.revision, revision);
    s.db.prepare(`DELETE FROM ${LINE_ITEMS_TABLE} WHERE seq = ?`).run(li.seq);
  })();
}

/**
 * Record a provider object the Line Item spawned. Only an approved plan is
 * executed, so only it records executions; the provider must be the Line
 * Item's. Recording the same object twice answers the first record (a retry
 * after a lost answer must not duplicate it).
 */
export function recordExecution(s: Scope, plan: PlanRow, lineItemId: string, body: RecordExecution): { execution: LineItemExecution; created: boolean } {
  return s.db.transaction(() => {
    const li = getLineItem(s, plan, lineItemId);
    if (plan.status === 'draft') throw domainError('plan_not_approved', 'Only an approved Campaign Plan is executed; approve it first.');
    if (plan.status === 'archived') throw domainError('plan_frozen', 'The Campaign Plan is archived and can no longer change.');
    if (li.provider !== body.provider) {
      throw domainError('provider_mismatch', `The Line Item is for ${li.provider ?? 'no provider'}, not ${body.provider}.`);
    }
    const existing = s.db
      .prepare<[number, string, string, string], ExecutionRow>(
        `SELECT * FROM ${EXECUTIONS_TABLE} WHERE line_item_seq = ? AND provider = ? AND entity_type = ? AND entity_id = ?`,
      )
      .get(li.seq, body.provider, body.entityType, body.entityId);
    if (existing) return { execution: toExecution(existing, li.id), created: false };
    const id = mintId('exe');
    s.db
      .prepare(
        `INSERT INTO ${EXECUTIONS_TABLE} (seq, id, line_item_seq, provider, entity_type, entity_id, mutation_id, recorded_at) VALUES (${nextSeq(EXECUTIONS_TABLE)}, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, li.seq, body.provider, body.entityType, body.entityId, body.mutationId ?? null, s.clock.now());
    const row = s.db.prepare<[string], ExecutionRow>(`SELECT * FROM ${EXECUTIONS_TABLE} WHERE id = ?`).get(id);
    if (!row) throw new Error(`execution ${id} was not stored`);
    return { execution: toExecution(row, li.id), created: true };
  })();
}
