// A mutation as stored (one row of `mutations`) and as read back, and the
// provider change its request asks for. Shared by the start (mutations.ts)
// and the worker that applies it (mutations-worker.ts).
import { createMutationBody, mutationSchema } from '../../contract/schemas/mutations.js';
import type { CreateMutation, Mutation, MutationState } from '../../contract/schemas/mutations.js';
import type { ProviderChange } from '../providers/types.js';

const STATUS_OF_ACTION = { pause: 'PAUSED', activate: 'ACTIVE', delete: 'DELETED', archive: 'ARCHIVED' } as const;

/** The request, as the provider change it asks for (whole units, the service's status words). */
export function changeOf(body: CreateMutation): ProviderChange {
  const change: ProviderChange = { entityType: body.target.type, entityId: body.target.id };
  switch (body.action) {
    case 'pause':
    case 'activate':
    case 'delete':
    case 'archive':
      change.status = STATUS_OF_ACTION[body.action];
      break;
    case 'rename':
      change.name = body.name;
      break;
    case 'set_budget':
      change.budget = body.budget.type ? { amount: body.budget.amount, type: body.budget.type } : { amount: body.budget.amount };
      break;
    case 'set_bid':
      if (body.bidStrategy !== undefined) change.bidStrategy = body.bidStrategy;
      if (body.bidAmount !== undefined) change.bidAmount = body.bidAmount;
      break;
    default: {
      // Every action of the schema has its case: a new one does not compile until it is here.
      const unknown: never = body;
      throw new Error(`no provider change for ${JSON.stringify(unknown)}`);
    }
  }
  return change;
}

export interface MutationDbRow {
  id: string;
  org_id: string;
  member_id: string;
  advertiser_id: string;
  provider: string;
  target_type: 'campaign' | 'ad_group';
  target_id: string;
  action: Mutation['action'];
  request: string;
  state: MutationState;
  error: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
}

/** The request a mutation was started with (stored as the validated body's JSON). */
export const requestOf = (r: Pick<MutationDbRow, 'request'>): CreateMutation => createMutationBody.parse(JSON.parse(r.request));

export function toMutation(r: MutationDbRow): Mutation {
  const { entityType: _t, entityId: _i, ...changes } = changeOf(requestOf(r));
  return {
    id: r.id,
    advertiserId: r.advertiser_id,
    provider: r.provider,
    target: { type: r.target_type, id: r.target_id },
    action: r.action,
    changes,
    state: r.state,
    error: r.error === null ? null : mutationSchema.shape.error.parse(JSON.parse(r.error)),
    entity: r.result === null ? null : mutationSchema.shape.entity.parse(JSON.parse(r.result)),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
  };
}
