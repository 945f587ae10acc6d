// Mutations: a change started on an advertiser, applied later by the worker
// (mutations-worker.ts). This file holds what happens when one is started (the
// checks after the request schema, in the order we chose: idempotency replay →
// advertiser owned → connection → write access → amounts), and how a stored row
// reads back. No HTTP here: failures are ApiErrors the route lets through.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../store/sqlite.js';
import type { Scope } from './scope.js';
import { domainError } from './errors.js';
import type { CreateMutation, Mutation, MutationState } from '../../contract/schemas/mutations.js';
import type { AdvertiserRecord, ProviderChange } from '../providers/types.js';
import { changeOf, toMutation } from './mutation-rows.js';
import type { MutationDbRow } from './mutation-rows.js';
import { canonicalJson } from '../../contract/canonical-json.js';
import { checkWholeAmount } from '../providers/units.js';
import { ownedAdvertiser } from './advertisers.js';
import { keysetPage } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';

/** How long an Idempotency-Key is remembered (per organization). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

const hashBody = (body: CreateMutation) => createHash('sha256').update(canonicalJson(body)).digest('hex');

/** The amounts a mutation writes must be positive and fit the currency's decimals (else 422 invalid_amount at once). */
function checkAmounts(change: ProviderChange, advertiser: AdvertiserRecord): void {
  const amounts: Array<[string, number | undefined]> = [
    ['budget.amount', change.budget?.amount],
    ['bidAmount', change.bidAmount],
  ];
  for (const [field, amount] of amounts) {
    if (amount === undefined) continue;
    const check = checkWholeAmount(amount, advertiser.currency);
    if (!check.ok) throw domainError('invalid_amount', `${field}: ${check.reason}`);
    if (amount <= 0) throw domainError('invalid_amount', `${field}: the amount must be greater than zero.`);
    if (amount > 1e12) throw domainError('invalid_amount', `${field}: the amount is larger than any provider accepts.`);
  }
}

export interface StartResult {
  mutation: Mutation;
  /** False when an Idempotency-Key replay answered an existing mutation. */
  created: boolean;
}

/** Start a mutation (one transaction: a racing duplicate key cannot start two). */
export function startMutation(s: Scope, body: CreateMutation, opts: { idempotencyKey?: string | undefined } = {}): StartResult {
  const { db } = s;
  const auth = { orgId: s.orgId, memberId: s.memberId };
  const now = s.clock.now();
  const started = db.transaction((): StartResult => {
    const { idempotencyKey } = opts;
    const hash = idempotencyKey === undefined ? null : hashBody(body);
    if (idempotencyKey !== undefined) {
      const seen = db
        .prepare<[string, string], { request_hash: string; mutation_id: string; created_at: number }>(
          'SELECT request_hash, mutation_id, created_at FROM mutation_idempotency WHERE org_id = ? AND key = ?',
        )
        .get(auth.orgId, idempotencyKey);
      if (seen && seen.created_at + IDEMPOTENCY_RETENTION_MS > now) {
        if (seen.request_hash !== hash) {
          throw domainError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request body; use a new key for a different change.',
          );
        }
        const existing = getMutationRow(db, auth.orgId, seen.mutation_id);
        if (existing) return { mutation: existing.mutation, created: false };
      }
    }

    const advertiser = ownedAdvertiser(db, auth.orgId, body.advertiserId);
    if (!advertiser) throw domainError('advertiser_not_owned', 'The advertiser is not one of your organization’s advertisers.');
    if (advertiser.connection === 'not_connected') {
      throw domainError('provider_not_connected', 'The advertiser has no usable provider connection; a person must reconnect it.', {
        provider: advertiser.provider,
      });
    }
    if (advertiser.connection === 'no_write_access') {
      throw domainError('missing_write_access', "The advertiser's connection has no write access; a person must reconnect it and grant write access.");
    }
    const change = changeOf(body);
    checkAmounts(change, advertiser);

    const id = `mut_${randomBytes(10).toString('hex')}`;
    db.prepare(
      `INSERT INTO mutations (id, org_id, member_id, advertiser_id, provider, target_type, target_id, action, request, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(id, auth.orgId, auth.memberId, advertiser.id, advertiser.provider, body.target.type, body.target.id, body.action, JSON.stringify(body), now, now);
    if (idempotencyKey !== undefined) {
      db.prepare('INSERT OR REPLACE INTO mutation_idempotency (org_id, key, request_hash, mutation_id, created_at) VALUES (?, ?, ?, ?, ?)').run(
        auth.orgId,
        idempotencyKey,
        hash,
        id,
        now,
      );
    }
    return { mutation: getMutationRow(db, auth.orgId, id)!.mutation, created: true };
  })();
  // Its first step falls due the start delay after now: the advancer takes it then.
  if (started.created) s.services.mutations.noteCreated(now);
  return started;
}

function getMutationRow(db: Database, orgId: string, id: string): { mutation: Mutation; starter: string } | null {
  const r = db.prepare<[string, string], MutationDbRow>('SELECT * FROM mutations WHERE id = ? AND org_id = ?').get(id, orgId);
  return r ? { mutation: toMutation(r), starter: r.member_id } : null;
}

/**
 * GET /mutations/{id}: another organization's mutation is 404 (as if it never
 * existed); a mutation of the same organization started by another member is
 * 403 forbidden, since the spec puts "the poller must be the starter" in the
 * permission table.
 */
export function readMutationAsStarter(s: Scope, id: string): Mutation {
  const found = getMutationRow(s.db, s.orgId, id);
  if (!found) throw domainError('not_found', 'No mutation with this id exists in your organization.');
  if (found.starter !== s.memberId) {
    throw domainError('forbidden', 'Only the member who started a mutation may read it; list the history with GET /mutations (mutation:read).');
  }
  return found.mutation;
}

export function listMutations(
  s: Scope,
  q: { cursor?: string | undefined; limit: number; advertiserId?: string | undefined; state?: MutationState | undefined },
): Page<Mutation> {
  const { cursor, limit, ...filters } = q;
  return keysetPage<MutationDbRow & Record<string, unknown>, Mutation>({
    db: s.db,
    secret: s.secret,
    scope: 'listMutations',
    filters,
    cursor,
    limit,
    select: '*',
    from: 'mutations',
    seq: 'seq',
    where: ['org_id = @org', filters.advertiserId ? 'advertiser_id = @advertiserId' : null, filters.state ? 'state = @state' : null],
    params: { org: s.orgId, advertiserId: filters.advertiserId, state: filters.state },
    map: toMutation,
  });
}
