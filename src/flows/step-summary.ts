// What the GitHub step summary of each command lists (issue #29): the rows,
// their columns, the column holding the state, and which states are failures.
// Data only: cli/output/step-summary.ts renders and appends it (a
// StepSummary is this shape plus the command line), and only in GitHub Actions.
import { explainFailure } from './upload-report.js';
import type { FileOutcome } from './upload.js';

type Row = Record<string, unknown>;

export interface SummaryTable {
  rows: Row[];
  columns: string[];
  state: string;
  failed: (row: Row) => boolean;
}

/** Files of `assets upload` and `assets sync`: a `result` each (sync's own rows have these columns). */
export const ASSET_COLUMNS = ['file', 'result', 'id', 'filename', 'error'];
const ASSET_FAILED = new Set(['failed', 'interrupted']);

export function assetsTable(rows: readonly Row[]): SummaryTable {
  return { rows: [...rows], columns: ASSET_COLUMNS, state: 'result', failed: (r) => ASSET_FAILED.has(String(r.result)) };
}

/** One row per file of `assets upload`. */
export function uploadRows(outcomes: readonly FileOutcome[]): Row[] {
  return outcomes.map((o) => ({
    file: o.file.shown,
    result: o.status,
    id: o.row?.id ?? o.pending?.id ?? null,
    filename: o.row?.filename ?? o.file.filename,
    error: o.status === 'failed' ? explainFailure(o) : o.status === 'interrupted' ? 'interrupted' : null,
  }));
}

/** `mutations apply`'s own rows (row, action, target, mutationId, state, sent, error). */
const MUTATION_DONE = new Set(['succeeded', 'pending', 'running', 'unchanged']);
export function mutationsTable(rows: readonly Row[]): SummaryTable {
  return {
    rows: [...rows],
    columns: ['row', 'action', 'target', 'mutationId', 'state', 'error'],
    state: 'state',
    failed: (r) => !MUTATION_DONE.has(String(r.state)),
  };
}

/** `mutations apply --preview`: what each row would do; a row that cannot be undone (or is missing) is listed first. */
const PREVIEW_ATTENTION = new Set(['cannot undo', 'missing']);
export function previewTable(rows: readonly Row[]): SummaryTable {
  return {
    rows: [...rows],
    columns: ['row', 'advertiser', 'target', 'field', 'current', 'new', 'effect', 'note'],
    state: 'effect',
    failed: (r) => PREVIEW_ATTENTION.has(String(r.effect)),
  };
}

/** `plans apply`: the plan, then each Line Item, with its id and state; `refused`: the index the service refused. */
export function planTable(
  doc: { plan: Row; lineItems: readonly Row[] },
  applied: Row | undefined,
  refused?: { index: number; error: string; rolledBack: boolean },
): SummaryTable {
  const items = Array.isArray(applied?.lineItems) ? (applied.lineItems as Row[]) : [];
  const rows: Row[] = [
    {
      item: 'plan',
      name: applied?.name ?? doc.plan.name ?? null,
      id: applied?.slug ?? doc.plan.slug ?? null,
      state: refused ? (refused.rolledBack ? 'deleted again' : 'left on the service') : (applied?.status ?? 'created'),
      error: refused ? `lineItems[${refused.index}] was refused` : null,
    },
    ...doc.lineItems.map((li, i) => {
      const got = items[i];
      const state = !refused ? 'added' : i < refused.index ? 'removed with the plan' : i === refused.index ? 'refused' : 'not sent';
      return {
        item: `lineItems[${i}]`,
        name: got?.name ?? li.name ?? null,
        id: got?.lineItemId ?? null,
        state,
        error: refused && i === refused.index ? refused.error : null,
      };
    }),
  ];
  return { rows, columns: ['item', 'name', 'id', 'state', 'error'], state: 'state', failed: (r) => r.error !== null };
}
