// Plain constants of the service interface (no zod here: the CLI's fast path
// may import this file). Order of PROVIDER_FILTER_VALUES is the spec's order.

export const API_KEY_PREFIX = 'acr_';
export const ADVERTISER_PREFIX = 'acc_';

/** Values the `provider` filter accepts, in the spec's order. */
export const PROVIDER_FILTER_VALUES = ['provider_a', 'provider_b', 'provider_e', 'provider_c', 'provider_f', 'provider_g', 'provider_d'] as const;
export type ProviderToken = (typeof PROVIDER_FILTER_VALUES)[number];

/** Providers whose campaign and ad-group operations exist. */
export const ENTITY_PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d'] as const;
export type EntityProvider = (typeof ENTITY_PROVIDERS)[number];

/** Providers that rows carry (spec: "Rows carry provider_a, provider_b or provider_c"). */
export const ROW_PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;

export const ENTITY_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];

/** The spec's closed list of ad-group `type` words (a campaign's is always `campaign`). */
export const AD_GROUP_TYPES = ['adset', 'adgroup', 'ad_group'] as const;

/** Ad-group `type` word each provider writes. provider_d: not stated by the spec (see docs/decisions.md). */
export const AD_GROUP_TYPE: Record<EntityProvider, (typeof AD_GROUP_TYPES)[number]> = {
  provider_a: 'adset',
  provider_b: 'adgroup',
  provider_c: 'ad_group',
  provider_d: 'ad_group',
};

/** Media types the Assets API accepts: the reservation's `contentType` choices, and what the CLI's upload sends. */
export const ASSET_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'] as const;

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 500;
export const LIMIT_DEFAULT = 100;

export const PERMISSIONS = [
  'observe:read',
  'mutation:write',
  'mutation:read',
  'skill:read',
  'skill:write',
  'brand:read',
  'brand:write',
  'campaign_plan:read',
  'campaign_plan:write',
  'asset:read',
  'asset:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];
