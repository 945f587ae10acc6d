// The common face of the four simulated ad platforms. Each provider module
// (provider-a.ts … provider-d.ts) knows its own payload keys, units, status
// words, time format and error objects; everything else (live reads, ingestion,
// mutation, faults) is written once against this interface.
import type { Database } from '../store/sqlite.js';
import type { z } from 'zod';
import type { EntityProvider, EntityStatus } from '../../contract/ids.js';
import type { Clock } from '../clock.js';
import type { ProviderCallLog } from './call-log.js';

/** The slice of SandboxServices the providers use. */
export interface ProviderServices {
  db: Database;
  clock: Clock;
  providerCalls: ProviderCallLog;
}

/** Resources an advertiser's provider may hold, as Observe names them. */
export const ENTITY_KINDS = ['campaign', 'ad_group', 'ad', 'creative', 'asset_group'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
/** Stored in provider_entities: the resources plus provider_c's budgets. */
export type StoredKind = EntityKind | 'shared_budget';

/** A provider's native object: its own keys and units. */
export type Payload = Record<string, unknown>;

export interface AdvertiserRecord {
  id: string;
  orgId: string;
  provider: EntityProvider;
  name: string;
  currency: string | null;
  connection: 'connected' | 'not_connected' | 'no_write_access';
}

export interface NormalizeContext {
  advertiser: AdvertiserRecord;
  /** Live rows carry the provider-only fields (bid amounts, schedules) and null service times. */
  live: boolean;
  /** Another entity of the same advertiser (parent campaign, shared budget). */
  lookup: (kind: StoredKind, id: string) => Payload | undefined;
}

/** A normalized row without the three service times (ingestion or the live read adds them). */
export type RowBody = Record<string, unknown>;

/** What a provider answers instead of data: its own error object, unchanged on the wire. */
export type PlatformErrorKind = 'error' | 'throttled';

/** A whole-unit change requested by the service (see mutate.ts). */
export interface ProviderChange {
  entityType: 'campaign' | 'ad_group';
  entityId: string;
  status?: EntityStatus;
  name?: string;
  budget?: { amount: number; type?: 'daily' | 'lifetime' };
  bidStrategy?: string;
  bidAmount?: number;
}

export type ChangeRefusal = { ok: false; status: number; error: string; message: string; extra?: Record<string, unknown> };

/** Entities a provider change writes: the target and maybe a shared budget. */
export interface ChangeWrites {
  ok: true;
  writes: Array<{ kind: StoredKind; id: string; payload: Payload }>;
}

/** A change of the budget alone: it does not move the provider's edit time (spec budget rule 5). */
export function isBudgetOnly(change: ProviderChange): boolean {
  return (
    change.budget !== undefined &&
    change.status === undefined &&
    change.name === undefined &&
    change.bidStrategy === undefined &&
    change.bidAmount === undefined
  );
}

export interface ChangeContext {
  advertiser: AdvertiserRecord;
  lookup: (kind: StoredKind, id: string) => Payload | undefined;
  /** The provider's edit time to write into the payload (ms). */
  now: number;
}

export interface ProviderAdapter {
  provider: EntityProvider;
  /** Resources this provider has; others answer 501 live_read_unsupported live and nothing stored. */
  kinds: readonly EntityKind[];
  /** Statuses one provider request can select exactly (spec's live `status` table). */
  liveStatuses: readonly EntityStatus[];
  /** 'page': page number + page size fixed by the first page (provider_b); 'token': a position token. */
  paging: 'token' | 'page';
  /** zod schema of each kind's fixture payload (provider keys and units). */
  fixture: Partial<Record<StoredKind, z.ZodType<Payload>>>;
  /** The provider's id of an entity payload. */
  idOf(kind: StoredKind, p: Payload): string;
  /** Parent ids named by the payload (null where none). */
  parentsOf(kind: EntityKind, p: Payload, lookup: NormalizeContext['lookup']): { campaignId: string | null; adGroupId: string | null };
  /** The provider's last-edit time of a payload (ms), or null if it reports none. */
  editTimeOf(p: Payload): number | null;
  statusOf(kind: EntityKind, p: Payload): EntityStatus;
  /** Normalized Observe row of a payload. */
  normalize(kind: EntityKind, p: Payload, ctx: NormalizeContext): RowBody;
  /** Single live read: the requested keys only, provider_a money in whole units. */
  singlePayload(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload;
  /** The provider's own error object for a failure or a throttled request. */
  platformError(kind: PlatformErrorKind): Record<string, unknown>;
  /** Apply a change to a payload in the provider's own words and units. */
  applyChange(target: Payload, change: ProviderChange, ctx: ChangeContext): ChangeWrites | ChangeRefusal;
}

export function refusal(status: number, error: string, message: string, extra?: Record<string, unknown>): ChangeRefusal {
  return extra ? { ok: false, status, error, message, extra } : { ok: false, status, error, message };
}

/** Base row fields every kind shares (service times excluded). */
export function baseRow(
  ctx: NormalizeContext,
  fields: { id: string; name: string; path: string; type: string; status: EntityStatus; createdTime: number | null; updatedTime: number | null },
): RowBody {
  return {
    advertiserId: ctx.advertiser.id,
    id: fields.id,
    name: fields.name,
    path: fields.path,
    provider: ctx.advertiser.provider,
    type: fields.type,
    status: fields.status,
    currency: ctx.advertiser.currency,
    createdTime: fields.createdTime,
    updatedTime: fields.updatedTime,
  };
}

/** Ancestor ids and the entity's own, oldest first, skipping unknown ancestors. */
export function joinPath(...ids: Array<string | null | undefined>): string {
  return ids.filter((x): x is string => typeof x === 'string' && x.length > 0).join('/');
}

/** Only the listed keys a payload actually has, in the listed order (the fields the service requests). */
export function pick(p: Payload, keys: readonly string[]): Payload {
  const out: Payload = {};
  for (const k of keys) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

// Readers of payload fields. A payload was checked against its provider's zod schema when it
// was written (fixture-schema.ts, applyChange), so these narrow what the schema promised
// rather than cast to it; a field of another type reads as absent.

/** A JSON object (a payload, or an object inside one). */
export function isPayload(v: unknown): v is Payload {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a value is one of a list of words (narrowed to the list's type). */
export function isOneOf<T extends string>(list: readonly T[], v: unknown): v is T {
  return list.some((w) => w === v);
}

/** An amount as the provider writes it: a number or a string of digits. */
export const amountOf = (v: unknown): number | string | undefined => (typeof v === 'number' || typeof v === 'string' ? v : undefined);
export const numberOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
