// Per-resource knowledge for output: the table's default columns (what an
// ad-ops engineer wants first) and the fields `--fields` may name.
//
// Resource keys (stable strings; commands pass them as `resource`):
//   Observe:   campaign, adGroup, ad, creative, assetGroup, insight, livePayload
//   Mutations: mutation
//   Context:   skill, catalogSkill, brand, brandAdvertiser, persona, document,
//              campaignPlan, lineItem, validation, readiness, execution
//   Assets:    asset, assetRegistration
//   Local:     keys, config, check, drift, profile, profileCheck, generic (anything else: no columns, any field)
//
// `fields` are the sandbox's zod schema fields (src/contract/schemas/**; a
// test keeps them in step), nested objects as dotted paths; `x.*` marks an
// open object (any path under x). A resource answered by a "get" and a "list"
// lists the union. `strict`: the spec says no other field exists (normalized
// Observe rows) or the data is ours, so an unknown field is refused before
// sending. Otherwise an unknown field is refused only if the data does not
// carry it either (the real service may add fields): see fields.ts.

export interface ResourceView {
  columns: readonly string[];
  /** Known fields; undefined: any name is accepted. */
  fields?: readonly string[];
  strict?: boolean;
  /**
   * Table columns most wanted first, when a known terminal width cannot hold
   * them all (default: the order of `columns`); shown in the order of `columns`.
   */
  importance?: readonly string[];
  /** Numeric fields `--chart` may draw over time. */
  metrics?: readonly string[];
}

const ENTITY_ROW = [
  'advertiserId',
  'id',
  'name',
  'path',
  'provider',
  'type',
  'status',
  'currency',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'createdTime',
  'updatedTime',
] as const;
const BUDGET_ROW = ['budget', 'budgetLevel', 'budgetType', 'bidStrategy'] as const;
const COMMON_ROW = [...ENTITY_ROW, ...BUDGET_ROW] as const;

const REGISTRATION = ['id', 'assetId', 'advertiserId', 'provider', 'providerAssetId', 'createdAt'] as const;
const VALIDATION = ['lineItemId', 'valid', 'problems', 'checkedAt'] as const;
const EXECUTION = ['executionId', 'lineItemId', 'provider', 'entityType', 'entityId', 'mutationId', 'recordedAt'] as const;
const LINE_ITEM = [
  'lineItemId',
  'planSlug',
  'name',
  'provider',
  'advertiserId',
  'budget',
  'budgetType',
  'startDate',
  'endDate',
  'objective',
  'lastValidation',
  ...VALIDATION.map((f) => `lastValidation.${f}`),
  'executions',
  'revision',
  'createdAt',
  'updatedAt',
] as const;
const BRAND_HEAD = ['slug', 'name', 'description', 'logoUrl', 'revision', 'createdAt', 'updatedAt'] as const;
const PLAN_HEAD = [
  'slug',
  'name',
  'description',
  'currency',
  'budget',
  'startDate',
  'endDate',
  'status',
  'approvedAt',
  'archivedAt',
  'revision',
  'createdAt',
  'updatedAt',
] as const;

export const RESOURCES: Record<string, ResourceView> = {
  campaign: {
    columns: ['id', 'name', 'provider', 'status', 'advertiserId', 'budget', 'budgetType', 'objective', 'updatedAt'],
    fields: [...COMMON_ROW, 'objective', 'adsetBudgetSharing'],
    strict: true,
  },
  adGroup: {
    columns: ['id', 'name', 'provider', 'status', 'campaignId', 'budget', 'budgetLevel', 'bidStrategy', 'updatedAt'],
    fields: [...COMMON_ROW, 'campaignId', 'bidAmount', 'roasFloor', 'startTime', 'endTime'],
    strict: true,
  },
  ad: {
    columns: ['id', 'name', 'provider', 'status', 'advertiserId', 'adGroupId', 'campaignId', 'updatedAt'],
    fields: [...ENTITY_ROW, 'campaignId', 'adGroupId', 'creativeId'],
  },
  creative: {
    columns: ['id', 'name', 'provider', 'status', 'advertiserId', 'title', 'callToAction'],
    fields: [...ENTITY_ROW, 'title', 'body', 'imageUrl', 'callToAction'],
  },
  assetGroup: {
    columns: ['id', 'name', 'provider', 'status', 'advertiserId', 'campaignId', 'finalUrls'],
    fields: [...ENTITY_ROW, 'campaignId', 'finalUrls'],
  },
  insight: {
    columns: ['dateStart', 'dateStop', 'advertiserId', 'provider', 'entityType', 'entityId', 'spend', 'impressions', 'clicks', 'reach', 'conversions'],
    fields: [
      'dateStart',
      'dateStop',
      'level',
      'advertiserId',
      'provider',
      'entityType',
      'entityId',
      'currency',
      'spend',
      'impressions',
      'clicks',
      'reach',
      'conversions',
    ],
    metrics: ['spend', 'impressions', 'clicks', 'reach', 'conversions'],
    // The numbers are why one reads Insights; the entity says whose they are, the date when.
    importance: ['entityId', 'spend', 'impressions', 'clicks', 'conversions', 'reach', 'dateStart', 'provider', 'dateStop', 'entityType', 'advertiserId'],
  },
  /** A live single read: the provider's own payload, its own keys. */
  livePayload: { columns: [] },
  mutation: {
    columns: ['id', 'action', 'state', 'target.type', 'target.id', 'advertiserId', 'provider', 'createdAt'],
    fields: [
      'id',
      'advertiserId',
      'provider',
      'target',
      'target.type',
      'target.id',
      'action',
      'changes',
      'changes.status',
      'changes.name',
      'changes.budget',
      'changes.budget.amount',
      'changes.budget.type',
      'changes.bidStrategy',
      'changes.bidAmount',
      'state',
      'error',
      'error.*',
      'entity',
      'entity.*',
      'createdAt',
      'updatedAt',
      'startedAt',
      'completedAt',
    ],
  },
  asset: {
    columns: ['id', 'filename', 'state', 'kind', 'mimeType', 'sizeBytes', 'width', 'height', 'updatedAt'],
    fields: [
      'id',
      'filename',
      'state',
      'kind',
      'mimeType',
      'sizeBytes',
      'width',
      'height',
      'revision',
      'registrations',
      'createdAt',
      'updatedAt',
      'finalizedAt',
      'sha256',
      'uploadUrl',
      'uploadExpiresAt',
    ],
  },
  assetRegistration: { columns: ['id', 'assetId', 'advertiserId', 'provider', 'providerAssetId', 'createdAt'], fields: REGISTRATION },
  skill: {
    columns: ['slug', 'name', 'source', 'catalogVersion', 'revision', 'updatedAt', 'description'],
    fields: ['slug', 'name', 'description', 'source', 'catalogSlug', 'catalogVersion', 'importedAt', 'revision', 'createdAt', 'updatedAt', 'body'],
  },
  catalogSkill: {
    columns: ['catalogSlug', 'name', 'version', 'updatedAt', 'description'],
    fields: ['catalogSlug', 'name', 'description', 'version', 'body', 'updatedAt'],
  },
  brand: {
    columns: ['slug', 'name', 'revision', 'updatedAt', 'description'],
    fields: [
      ...BRAND_HEAD,
      'identity',
      'voice',
      'guidelines',
      'messaging',
      'sections',
      'sections.identity',
      'sections.voice',
      'sections.guidelines',
      'sections.messaging',
    ],
  },
  brandAdvertiser: {
    columns: ['advertiserId', 'name', 'provider', 'currency', 'attachedAt'],
    fields: ['advertiserId', 'provider', 'name', 'currency', 'attachedAt'],
  },
  persona: {
    columns: ['brandSlug', 'slug', 'name', 'channels', 'revision', 'updatedAt'],
    fields: ['brandSlug', 'slug', 'name', 'description', 'demographics', 'goals', 'painPoints', 'channels', 'revision', 'createdAt', 'updatedAt'],
  },
  document: {
    columns: ['documentId', 'filename', 'contentType', 'sizeBytes', 'state', 'updatedAt'],
    fields: [
      'documentId',
      'brandSlug',
      'filename',
      'contentType',
      'sizeBytes',
      'state',
      'createdAt',
      'updatedAt',
      'finalizedAt',
      'uploadUrl',
      'uploadExpiresAt',
    ],
  },
  campaignPlan: {
    columns: ['slug', 'name', 'status', 'budget', 'startDate', 'endDate', 'lineItemCount', 'updatedAt'],
    fields: [...PLAN_HEAD, 'lineItemCount', 'lineItems'],
  },
  lineItem: {
    columns: ['lineItemId', 'name', 'provider', 'advertiserId', 'budget', 'budgetType', 'startDate', 'endDate', 'lastValidation.valid'],
    fields: LINE_ITEM,
  },
  validation: { columns: ['lineItemId', 'valid', 'problems', 'checkedAt'], fields: VALIDATION },
  readiness: { columns: ['lineItemId', 'ready', 'missing', 'checkedAt'], fields: ['lineItemId', 'ready', 'missing', 'checkedAt'] },
  execution: { columns: ['executionId', 'provider', 'entityType', 'entityId', 'mutationId', 'recordedAt'], fields: EXECUTION },
  keys: { columns: ['organization', 'label', 'key', 'description'], fields: ['key', 'organization', 'label', 'description'], strict: true },
  config: { columns: ['key', 'value', 'source'], fields: ['key', 'value', 'source'], strict: true },
  check: { columns: ['check', 'ok', 'detail'], fields: ['check', 'ok', 'detail'], strict: true },
  /** `auth list` and `auth status --all`: a stored profile, its key masked. */
  profile: { columns: ['name', 'default', 'baseUrl', 'key', 'organization'], fields: ['name', 'default', 'baseUrl', 'key', 'organization'], strict: true },
  profileCheck: {
    columns: ['name', 'default', 'baseUrl', 'key', 'ok', 'detail'],
    fields: ['name', 'default', 'baseUrl', 'key', 'organization', 'ok', 'detail'],
    strict: true,
  },
  /** `observe drift`: one difference between the stored and the live copy. */
  drift: { columns: ['id', 'name', 'field', 'stored', 'live'], fields: ['id', 'name', 'field', 'stored', 'live'], strict: true },
  generic: { columns: [] },
};

export function resourceView(name: string): ResourceView {
  return RESOURCES[name] ?? RESOURCES.generic!;
}
