// Start a mutation without ever starting it twice. POST /mutations carries an
// Idempotency-Key, but we do not rely on the service honouring it: when the
// answer is lost after sending (the change may or may not exist), we look in
// GET /mutations (newest first, a page or two) for the change we started
// before sending again, and report what we found. No terminal code here.
import { randomUUID } from 'node:crypto';
import { NetworkError } from '../client/errors.js';
import type { ApiClient } from '../client/http.js';

export type Mutation = Record<string, unknown>;

export interface StartResult {
  mutation: Mutation;
  idempotencyKey: string;
  /** How an ambiguous failure was resolved: found in history, or sent again. */
  recovered?: 'found' | 'resent';
}

export interface StartOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Progress for a person (the command prints it on stderr). */
  onNote?: (message: string) => void;
  /** Pages of history to look through (default 2). */
  lookupPages?: number;
  now?: () => number;
}

/** Clock skew tolerated between us and the service when matching by content. */
const SKEW_MS = 120_000;

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a as object).sort();
  const kb = Object.keys(b as object).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Is `row` the mutation we sent? By idempotency key when the service echoes one;
 * otherwise every field we sent that the row also carries must match (tolerant
 * of shapes we do not know), and it must have been created after we started.
 */
export function matchesStarted(row: Mutation, body: Record<string, unknown>, key: string, sentAt: number): boolean {
  const echoed = row.idempotencyKey ?? row.idempotency_key;
  if (typeof echoed === 'string') return echoed === key;
  const compared = Object.keys(body).filter((k) => k in row);
  if (compared.length === 0 || !compared.every((k) => sameJson(row[k], body[k]))) return false;
  const created = typeof row.createdAt === 'number' ? row.createdAt : undefined;
  return created === undefined || created >= sentAt - SKEW_MS;
}

export async function findStarted(client: ApiClient, body: Record<string, unknown>, key: string, sentAt: number, opts: StartOptions = {}): Promise<Mutation | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < (opts.lookupPages ?? 2); page++) {
    const query: Record<string, string | number | undefined> = { limit: 50, cursor };
    if (typeof body.advertiserId === 'string') query.advertiserId = body.advertiserId;
    const res = await client.request<{ data?: Mutation[]; nextCursor?: string }>({ method: 'GET', path: '/mutations', query, ...(opts.signal ? { signal: opts.signal } : {}) });
    const found = (res.body?.data ?? []).find((row) => matchesStarted(row, body, key, sentAt));
    if (found) return found;
    cursor = res.body?.nextCursor;
    if (!cursor) return undefined;
  }
  return undefined;
}

export async function startMutation(client: ApiClient, body: Record<string, unknown>, opts: StartOptions = {}): Promise<StartResult> {
  const key = opts.idempotencyKey ?? randomUUID();
  const now = opts.now ?? Date.now;
  const send = async () =>
    (await client.request<Mutation>({ method: 'POST', path: '/mutations', json: body, headers: { 'idempotency-key': key }, ...(opts.signal ? { signal: opts.signal } : {}) })).body;
  const sentAt = now();
  try {
    return { mutation: await send(), idempotencyKey: key };
  } catch (err) {
    // Not sent at all (refused connection): the client already retried; nothing exists.
    if (!(err instanceof NetworkError) || !err.sent) throw err;
    opts.onNote?.(`the answer to POST /mutations was lost (${err.message}); looking for the change in GET /mutations before sending again`);
  }
  const found = await findStarted(client, body, key, sentAt, opts);
  if (found) {
    opts.onNote?.(`found it: mutation ${String(found.id)} (${String(found.state ?? found.status ?? 'state unknown')}); not sending again`);
    return { mutation: found, idempotencyKey: key, recovered: 'found' };
  }
  opts.onNote?.('not in the history: sending again with the same Idempotency-Key');
  return { mutation: await send(), idempotencyKey: key, recovered: 'resent' };
}
