// The provider side of a Mutation: apply one change, in whole units of the
// account currency, to a campaign or ad group at the advertiser's provider.
// The provider's module converts units (minor, whole, micros, decimal
// strings) and status words; refusals come back as values, never thrown, so
// the mutations worker can record them. Faults and rate limits apply as to
// live reads. Budget-only edits do not move the provider's edit stamp, which
// is why ingestion may miss them (spec budget rule 5).
import type { EntityStatus } from '../../contract/ids.js';
import { ENTITY_STATUSES } from '../../contract/ids.js';
import { callProvider } from './faults.js';
import { adapterFor } from './registry.js';
import { findAdvertiser } from '../models/advertisers.js';
import { pointLookup, providerEntity, writeProviderEntity } from './store.js';
import { isBudgetOnly, isOneOf, refusal } from './types.js';
import type { AdvertiserRecord, ChangeRefusal, Payload, ProviderChange, ProviderServices } from './types.js';

export type { ProviderChange } from './types.js';
export type ProviderChangeResult = { ok: true; entity: Payload } | ChangeRefusal;

function checkShape(change: ProviderChange): ChangeRefusal | null {
  if (change.entityType !== 'campaign' && change.entityType !== 'ad_group')
    return refusal(422, 'unsupported_change', 'Only campaigns and ad groups can be changed.');
  if (typeof change.entityId !== 'string' || change.entityId.length === 0) return refusal(404, 'not_found', 'No such entity at the provider.');
  if (change.status !== undefined && !isOneOf(ENTITY_STATUSES, change.status)) {
    return refusal(422, 'unsupported_status', `status must be one of ${ENTITY_STATUSES.join(', ')}.`);
  }
  if (change.name !== undefined && (typeof change.name !== 'string' || change.name.trim().length === 0 || change.name.length > 400)) {
    return refusal(422, 'invalid_name', 'A name must be 1 to 400 characters.');
  }
  const nothing =
    change.status === undefined &&
    change.name === undefined &&
    change.budget === undefined &&
    change.bidStrategy === undefined &&
    change.bidAmount === undefined;
  return nothing ? refusal(422, 'unsupported_change', 'The change names nothing to change.') : null;
}

/**
 * Apply `change` at the advertiser's provider. `entity` is the provider's
 * payload after the change in the service's own units: the keys the service
 * requests, provider_a money in whole units (as a single live read).
 */
export async function applyProviderChange(
  services: ProviderServices,
  advertiser: string | Pick<AdvertiserRecord, 'id'>,
  change: ProviderChange,
): Promise<ProviderChangeResult> {
  const record = findAdvertiser(services.db, typeof advertiser === 'string' ? advertiser : advertiser.id);
  if (!record) return refusal(404, 'not_found', 'No such advertiser.');
  if (record.connection === 'not_connected') {
    return refusal(409, 'provider_not_connected', 'The advertiser has no usable provider connection; a person must reconnect it.', {
      provider: record.provider,
    });
  }
  const shape = checkShape(change);
  if (shape) return shape;
  const adapter = adapterFor(record.provider);
  const current = providerEntity(services.db, record.id, change.entityType, change.entityId);
  if (!current) return refusal(404, 'not_found', `The provider holds no such ${change.entityType === 'campaign' ? 'campaign' : 'ad group'} on this account.`);
  const status: EntityStatus = adapter.statusOf(change.entityType, current.payload);
  if (status === 'DELETED') return refusal(422, 'invalid_transition', 'A deleted entity cannot be changed.');

  const now = services.clock.now();
  const lookup = pointLookup(services.db, record.id);
  const result = adapter.applyChange(current.payload, change, { advertiser: record, lookup, now });
  if (!result.ok) return result;

  const refused = await callProvider(services, record.provider);
  if (refused) return refusal(502, 'provider_error', refused.message, { provider: refused.provider, platformError: refused.platformError });

  const budgetOnly = isBudgetOnly(change);
  services.db.transaction(() => {
    for (const w of result.writes) {
      const before = providerEntity(services.db, record.id, w.kind, w.id);
      writeProviderEntity(services.db, record.id, w.kind, w.id, w.payload, budgetOnly ? (before?.stamp ?? 0) : now);
    }
  })();
  // Answered as a single live read answers it: the requested keys, provider_a money in whole units.
  return { ok: true, entity: adapter.singlePayload(change.entityType, result.writes[0]!.payload, { advertiser: record, live: true, lookup }) };
}
