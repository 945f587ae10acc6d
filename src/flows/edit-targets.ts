// The rows that carry a `revision` and how each is read and written: the
// edit facts of each noun (src/contract/resources.ts), found by its update
// operation. A Line Item has no GET of its own: it is read through its plan's
// GET (`lineItems[]`), so "read again after a 409" costs one plan read.
import { checkAnswer } from '../client/answer-check.js';
import type { AnswerViewName } from '../contract/answer-views.js';
import { ApiError } from '../client/errors.js';
import { operationRequest } from '../client/call.js';
import { isRecord } from '../client/json.js';
import type { Requester } from '../client/request.js';
import { isOperationId, type OperationId } from '../contract/operations.js';
import { resourceEntries, type EditSpec, type Resource } from '../contract/resources.js';
import type { Revisioned } from './edit.js';

export interface EditTarget {
  /** For messages: 'brand', 'line item'. */
  noun: string;
  /** The GET answering the row (for a Line Item: its plan's). */
  readOperation: OperationId;
  /** What is read of the GET's answer and of the update's (src/contract/answer-views.ts). */
  views: { read: AnswerViewName; written: AnswerViewName };
  /** Picks the row out of the GET's answer where the GET answers its parent. */
  pick?: (body: Record<string, unknown>, params: Record<string, string>) => unknown;
  /** Fields an editor shows as markdown blocks (multi-line prose); the others are `field: value` lines. */
  blocks: readonly string[];
  /** Fields the update accepts that an editor does not offer (a state change is its own command). */
  notEditable: readonly string[];
  /** Why the row cannot be changed now, judged from the GET's answer (an approved plan freezes its Line Items too). */
  frozen?: (body: Record<string, unknown>) => string | undefined;
}

/** The row of `within[]` whose id field holds the path parameter of that name. */
const pickWithin =
  (within: string, id: string) =>
  (parent: Record<string, unknown>, params: Record<string, string>): unknown => {
    const items: unknown = parent[within];
    return Array.isArray(items) ? items.find((row) => isRecord(row) && row[id] === params[id]) : undefined;
  };

/** Why the row cannot change now: the read answer's state is not the one the rule allows. */
const frozenUnless =
  ({ field, value, owner, rule }: NonNullable<EditSpec['onlyWhile']>) =>
  (body: Record<string, unknown>): string | undefined =>
    body[field] === value ? undefined : `the ${owner} is ${String(body[field])}, and ${rule}`;

function targetOf(r: Resource, edit: EditSpec): EditTarget {
  return {
    noun: r.noun,
    readOperation: edit.read,
    views: edit.views,
    ...(edit.within ? { pick: pickWithin(edit.within, r.id) } : {}),
    blocks: edit.blocks,
    notEditable: edit.notEditable,
    ...(edit.onlyWhile ? { frozen: frozenUnless(edit.onlyWhile) } : {}),
  };
}

export function editTarget(updateOperationId: string): EditTarget {
  for (const [, r] of resourceEntries()) if (r.edit?.update === updateOperationId) return targetOf(r, r.edit);
  throw new Error(`no edit target for ${updateOperationId}`);
}

/** The row, once the answer carries the revision the next write is made at (else unexpected_answer, exit 1). */
function asRow(row: unknown): Revisioned {
  if (!isRecord(row) || typeof row.revision !== 'number') throw new Error('asRow: a row checked to carry its revision');
  return { ...row, revision: row.revision };
}

/** The row, and why it cannot be changed now (if the target knows such a state). */
export async function readEditable(
  client: Requester,
  target: EditTarget,
  params: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ row: Revisioned; frozen?: string }> {
  const id = target.readOperation;
  const req = operationRequest(id, { params }, { signal });
  const body: Record<string, unknown> = await checkAnswer(target.views.read, (await client.request(req)).body);
  const frozen = target.frozen?.(body);
  if (!target.pick) return { row: asRow(body), ...(frozen ? { frozen } : {}) };
  const row = target.pick(body, params);
  if (row === undefined) {
    // What a GET of the row itself would answer: the parent exists, the row does not.
    const rowId = Object.values(params).slice(-1)[0];
    throw new ApiError({
      status: 404,
      body: { error: 'not_found', message: `No ${target.noun} ${rowId} in ${req.path}.` },
      method: req.method,
      path: req.path,
    });
  }
  return { row: asRow(row), ...(frozen ? { frozen } : {}) };
}

export async function readRow(client: Requester, target: EditTarget, params: Record<string, string>, signal?: AbortSignal): Promise<Revisioned> {
  return (await readEditable(client, target, params, signal)).row;
}

/** Write the changes at the revision read; the changes are the user's (the service checks them). */
export async function writeRow(
  client: Requester,
  updateOperationId: string,
  params: Record<string, string>,
  changes: Record<string, unknown>,
  revision: number,
  signal?: AbortSignal,
): Promise<Revisioned> {
  if (!isOperationId(updateOperationId)) throw new Error(`unknown operation id: ${updateOperationId}`);
  const { body } = await client.request(operationRequest(updateOperationId, { params, body: { ...changes, revision } }, { signal }));
  return asRow(await checkAnswer(editTarget(updateOperationId).views.written, body));
}
