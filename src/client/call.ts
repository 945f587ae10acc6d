// Calling an operation of the table by its id: the method and path template
// come from src/contract/operations.ts (the path filled with fillPath, each
// value percent-encoded), the input's types from the operation's schemas
// (src/contract/operation-io.ts). The answer is not validated: the real
// service may send fields the contract does not name, so the output type says
// what the contract promises, and readers stay tolerant of more.
import type { OperationInput, OperationOutput } from '../contract/operation-io.js';
import { OPERATION_TABLE, fillPath, type OperationId } from '../contract/operations.js';
import { paginate, type Page, type PaginateOptions } from './paginate.js';
import type { ApiRequest, QueryValue, Requester } from './request.js';
import type { RetryPolicy, SendBudget, ThrottleGate } from './retry.js';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Per-call changes to the retry policy (e.g. { maxAttempts: 1 }). */
  retry?: Partial<RetryPolicy>;
  /** Sent besides the operation's own headers. */
  headers?: Readonly<Record<string, string>>;
  /** Requests that share one gate wait out each other's throttling (a pool of workers). */
  gate?: ThrottleGate;
  /** A request a flow sends again (a change in doubt): every send draws from this one budget. */
  sends?: SendBudget;
}

/** The shape every operation's input has, whatever the operation. */
export interface AnyOperationInput {
  params?: object;
  query?: object;
  headers?: object;
  body?: unknown;
}

/** Operations that answer a page of rows (`data` and `nextCursor`). */
export type ListOperationId = { [K in OperationId]: (typeof OPERATION_TABLE)[K]['kind'] extends 'list' ? K : never }[OperationId];

/** One row of a list operation's page. */
export type RowOf<Id extends OperationId> = OperationOutput<Id> extends { data: ReadonlyArray<infer R> } ? R : Record<string, unknown>;

const scalar = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

function stringsOf(values: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (values) for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null) out[name] = scalar(value);
  return out;
}

function queryOf(values: object): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    out[name] = Array.isArray(value) ? value.map(scalar) : typeof value === 'number' || typeof value === 'boolean' ? value : scalar(value);
  }
  return out;
}

/** The request an operation call sends. */
export function operationRequest(id: OperationId, input: AnyOperationInput, opts: CallOptions = {}): ApiRequest {
  const op = OPERATION_TABLE[id];
  const headers = stringsOf(input.headers);
  if (opts.headers) Object.assign(headers, opts.headers);
  // Members set one by one, only when present (#37: a conditional spread is an object made and copied, per request of a bulk run).
  const req: ApiRequest = { method: op.method, path: fillPath(op.path, stringsOf(input.params)) };
  if (input.query) req.query = queryOf(input.query);
  if (input.body !== undefined) req.json = input.body;
  for (const _ in headers) {
    req.headers = headers;
    break;
  }
  if (opts.signal) req.signal = opts.signal;
  if (opts.retry) req.retry = opts.retry;
  if (opts.gate) req.gate = opts.gate;
  if (opts.sends) req.sends = opts.sends;
  return req;
}

/** Send one operation; its 2xx body, or ApiError / NetworkError (after the client's retries). */
export function callOperation<Id extends OperationId>(client: Requester, id: Id, input: OperationInput<Id>, opts?: CallOptions): Promise<OperationOutput<Id>>;
export async function callOperation(client: Requester, id: OperationId, input: AnyOperationInput, opts: CallOptions = {}): Promise<unknown> {
  return (await client.request(operationRequest(id, input, opts))).body;
}

/**
 * Send one operation with input as the user wrote it (a file, a CSV row, an
 * editor's changes): the service checks it, so it is not typed against the schema here.
 */
export async function callUnchecked<Id extends OperationId>(
  client: Requester,
  id: Id,
  input: AnyOperationInput,
  opts: CallOptions = {},
): Promise<OperationOutput<Id>> {
  return (await client.request<OperationOutput<Id>>(operationRequest(id, input, opts))).body;
}

/** The pages of a list operation, through the one paginator (repeated-cursor guard, Ctrl-C, max, resume cursor). */
export function operationPages<Id extends ListOperationId>(
  client: Requester,
  id: Id,
  input: OperationInput<Id>,
  opts?: CallOptions & PaginateOptions,
): AsyncGenerator<Page<RowOf<Id>>, void, undefined>;
export function operationPages(
  client: Requester,
  id: ListOperationId,
  input: AnyOperationInput,
  opts: CallOptions & PaginateOptions = {},
): AsyncGenerator<Page<unknown>, void, undefined> {
  const advertiserId = [input.params, input.query]
    .map((part) => (part && 'advertiserId' in part ? part.advertiserId : undefined))
    .find((v) => typeof v === 'string');
  return paginate(client, operationRequest(id, input, opts), { operation: id, ...(advertiserId ? { advertiserId } : {}), ...opts });
}
