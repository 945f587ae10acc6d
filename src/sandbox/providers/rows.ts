// The shape of a normalized Observe row on the wire: the contract's key order,
// every field present (null where absent), the three service times included.
// Shared by ingestion (which stores the serialized row) and live reads.
import { adGroupRowSchema, adRowSchema, assetGroupRowSchema, campaignRowSchema, creativeRowSchema } from '../../contract/schemas/observe.js';
import { isOneOf } from './types.js';
import type { EntityKind, RowBody } from './types.js';

/** Field order of each row kind, as the contract's schema lists them. */
export const ROW_KEYS: Record<EntityKind, readonly string[]> = {
  campaign: Object.keys(campaignRowSchema.shape),
  ad_group: Object.keys(adGroupRowSchema.shape),
  ad: Object.keys(adRowSchema.shape),
  creative: Object.keys(creativeRowSchema.shape),
  asset_group: Object.keys(assetGroupRowSchema.shape),
};

export interface ServiceTimes {
  createdAt: number | null;
  updatedAt: number | null;
  deletedAt: number | null;
}

/** Null service times: what a live row carries. */
export const LIVE_TIMES: ServiceTimes = { createdAt: null, updatedAt: null, deletedAt: null };

const TIME_KEYS = ['createdAt', 'updatedAt', 'deletedAt'] as const satisfies ReadonlyArray<keyof ServiceTimes>;
const isTimeKey = (k: string): k is keyof ServiceTimes => isOneOf(TIME_KEYS, k);

/** A row body plus the three service times, in the contract's key order. */
export function completeRow(kind: EntityKind, body: RowBody, times: ServiceTimes): Record<string, unknown> {
  // Built in one pass (no merged copy): a live page completes every one of its rows.
  const out: Record<string, unknown> = {};
  for (const k of ROW_KEYS[kind]) out[k] = (isTimeKey(k) ? times[k] : body[k]) ?? null;
  return out;
}
