// Start a mutation so that it is made exactly once, or say plainly that we
// could not tell. POST /mutations carries an Idempotency-Key. When the answer
// is lost (the change may or may not exist), we send the SAME body with the
// SAME key again: the service answers the change already started, or starts
// it now, never a second one. That answer is the only proof we accept.
//
// Only when every resend fails too do we look in GET /mutations, comparing the
// whole change (every value, nested); what we find there is never adopted
// (an identical change by someone else would look the same), only named in
// the "could not tell" failure, with the key and the command that retries
// safely. A 403 on that look-up (a write-only key) is not the run's failure.
// A 2xx without a mutation id is no proof either (client/answer-check.ts): it
// is treated as a lost answer, resent with the same key, and in the end
// "could not tell", never a started change.
// No terminal code here.
import { randomUUID } from 'node:crypto';
import { checkAnswer, UnexpectedAnswerError } from '../client/answer-check.js';
import { operationRequest, type CallOptions } from '../client/call.js';
import { ApiError, NetworkError } from '../client/errors.js';
import type { ApiClient } from '../client/http.js';
import { realRetryDeps, type ThrottleGate } from '../client/retry.js';
import { OPERATION_TABLE } from '../contract/operations.js';
import { sameChange } from './mutation-match.js';

const CREATE = OPERATION_TABLE.createMutation;

export type Mutation = Record<string, unknown>;

/** A mutation the service answered with its id (checked). */
export type StartedMutation = Mutation & { id: string };

export interface StartResult {
  mutation: StartedMutation;
  idempotencyKey: string;
  /** Set when the first answer was lost and a resend with the same key answered. */
  recovered?: 'resent';
}

export interface StartOptions {
  idempotencyKey?: string;
  signal?: AbortSignal | undefined;
  /** Progress for a person (the command prints it on stderr). */
  onNote?: (message: string) => void;
  /** Resends with the same key after an ambiguous failure (default 3). */
  resends?: number;
  /** Pages of history to look through when every resend failed (default 2; 0 skips the look-up). */
  lookupPages?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Shared by a pool of starts: each waits out the others' throttling (flows/mutation-apply.ts). */
  gate?: ThrottleGate;
}

/** How the history look-up went, for the message. */
export type Lookup = { kind: 'skipped' } | { kind: 'forbidden' } | { kind: 'failed'; reason: string } | { kind: 'searched'; candidates: Mutation[] };

/** The change was sent, its answer lost, and nothing proved whether it started. */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  constructor(
    message: string,
    readonly idempotencyKey: string,
    readonly body: Record<string, unknown>,
    readonly lookup: Lookup,
  ) {
    super(message);
  }
}

/** Clock skew tolerated between us and the service when naming candidates. */
const SKEW_MS = 120_000;

/**
 * Could the service have made the change although we got no answer saying so?
 * A lost answer, or a 5xx that is not the service's own refusal (a gateway's
 * 502/503/504 or a 500 may come after the change was stored).
 */
function isAmbiguous(err: unknown): boolean {
  // A 2xx that names no mutation: something answered, but not with the change.
  if (err instanceof UnexpectedAnswerError) return true;
  if (err instanceof NetworkError) return err.sent;
  if (err instanceof ApiError) return err.status >= 500 && err.status !== 501 && err.code !== 'provider_error';
  return false;
}

/**
 * After an ambiguous failure, is a resend's refusal proof that no change was
 * made? Yes for refusals the service makes after its Idempotency-Key replay
 * (ownership, connection, write access, amounts): a stored key would have
 * answered the change instead. Not for the checks made before it (key,
 * subscription, permission, schema) nor for rate limits.
 */
function refusalIsFinal(err: ApiError): boolean {
  if (err.status < 400 || err.status >= 500) return false;
  return !['unauthorized', 'organization_unentitled', 'forbidden', 'invalid_request'].includes(err.code) && err.status !== 429 && !err.code.startsWith('http_');
}

async function findCandidates(client: ApiClient, body: Record<string, unknown>, sentAt: number, opts: StartOptions): Promise<Lookup> {
  const pages = opts.lookupPages ?? 2;
  if (pages <= 0) return { kind: 'skipped' };
  const candidates: Mutation[] = [];
  const query = typeof body.advertiserId === 'string' ? { advertiserId: body.advertiserId } : {};
  try {
    let seen = 0;
    for await (const page of client.pages('listMutations', { query }, { pageSize: 50, signal: opts.signal })) {
      for (const row of page.rows) {
        // Read tolerantly: another deployment may write its times otherwise.
        if (typeof row.createdAt === 'number' && row.createdAt >= sentAt - SKEW_MS && sameChange(row, body)) candidates.push(row);
      }
      if (++seen >= pages) break;
    }
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    if (err instanceof ApiError && err.status === 403) return { kind: 'forbidden' };
    return { kind: 'failed', reason: messageOf(err) };
  }
  return { kind: 'searched', candidates };
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export async function startMutation(client: ApiClient, body: Record<string, unknown>, opts: StartOptions = {}): Promise<StartResult> {
  const key = opts.idempotencyKey ?? randomUUID();
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? realRetryDeps.sleep;
  // Every send of this change, the client's retries and our resends, draws from one budget:
  // at most maxSends(policy) in all (6 by default; --retries N: N+1), within --retry-budget.
  const sends = client.sendBudget();
  // The body as the user wrote it (the service checks it); the same key on every send. Input and options
  // made once per change, members set one by one (#37 session 6: not a spread per send of a bulk run).
  const input = { headers: { 'idempotency-key': key }, body };
  const callOpts: CallOptions = { signal: opts.signal, sends };
  if (opts.gate) callOpts.gate = opts.gate;
  const send = async (): Promise<StartedMutation> => {
    const res = await client.request(operationRequest('createMutation', input, callOpts));
    return checkAnswer('mutationStarted', res.body, { status: res.status });
  };
  const sentAt = now();
  let last: Error | undefined;
  try {
    return { mutation: await send(), idempotencyKey: key };
  } catch (err) {
    // A refusal, or a connection that never carried the request: nothing was made.
    if (!isAmbiguous(err)) throw err;
    last = err instanceof Error ? err : new Error(String(err));
  }
  const resends = opts.resends ?? 3;
  for (let i = 1; i <= resends && sends.left(); i++) {
    const what = last instanceof UnexpectedAnswerError ? 'an answer that names no mutation' : 'no answer';
    opts.onNote?.(`${what} to ${CREATE.method} ${CREATE.path} (${messageOf(last)}); sending it again with the same Idempotency-Key (${i}/${resends})`);
    await sleep(Math.min(4000, 500 * 2 ** (i - 1)), opts.signal);
    // The wait may have spent what was left of the time budget.
    if (!sends.left()) break;
    try {
      const mutation = await send();
      opts.onNote?.(`the service answered: mutation ${mutation.id} (the same change, made once)`);
      return { mutation, idempotencyKey: key, recovered: 'resent' };
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (err instanceof ApiError && refusalIsFinal(err)) throw err;
      // A connection refused now says nothing about the first attempt, which did go out.
      last = err instanceof Error ? err : new Error(String(err));
    }
  }
  const lookup = await findCandidates(client, body, sentAt, opts);
  throw new OutcomeUnknownError(`could not tell whether the change started: ${messageOf(last)}`, key, body, lookup);
}
